import jax
import jax.numpy as jnp

from bookexec.facts import claim, record, timings


def leaky_squash(x):
    for _ in range(12):
        x = 0.9 * x + 0.1 * x * x
        x = jnp.where(x > 0, x, 0.5 * x)
    return x


x = jnp.linspace(-3.0, 3.0, 2_000)
squash_jit = jax.jit(leaky_squash)

record("eqns", len(jax.make_jaxpr(leaky_squash)(x).eqns))
t = timings({"eager": lambda: leaky_squash(x), "jitted": lambda: squash_jit(x)}, repeat=30)
t_eager, t_jit = t["eager"], t["jitted"]
speedup = record("speedup", t_eager / t_jit, kind="ratio")
claim("speedup", ">=", 4, says="jit is at least 4 times faster than eager here")
print(f"eager {t_eager}, jitted {t_jit}: {speedup} times faster")
