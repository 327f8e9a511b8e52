import jax
import jax.numpy as jnp

from bookexec.facts import claim, record, timing  # hidden


def normalise_once(x):
    centred = x - jnp.mean(x)
    scaled = centred / jnp.std(x)
    clipped = jnp.clip(scaled, -3.0, 3.0)
    return jnp.round(clipped * 100) / 100


x = jnp.linspace(-3.0, 3.0, 10_000) ** 3


def jit_and_call():
    jax.clear_caches()  # a one-shot function is never in the cache
    return jax.jit(normalise_once)(x)


# fastest is the helper of the first block
t_eager = fastest({"eager": lambda: normalise_once(x)}, repeat=20)["eager"]
t_jit = fastest({"jit_once": jit_and_call}, repeat=3)["jit_once"]
t_eager = timing("eager", lambda: normalise_once(x), repeat=20)  # hidden
t_jit = timing("jit_once", jit_and_call, repeat=3)  # hidden
ratio = t_jit / t_eager
# hidden: begin
ratio = record("ratio", ratio, kind="ratio")
claim("ratio", ">=", 3, says="jitting a one-shot call costs at least 3 times an eager call")
# hidden: end
print(f"one eager call {t_eager:.3g}, jit + one call {t_jit:.3g}: {ratio:.3g} times as long")
