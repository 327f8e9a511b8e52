import jax
import jax.numpy as jnp

from bookexec.facts import claim, record, timing

# leaky_squash is the function of the first block
x = jnp.linspace(-3.0, 3.0, 2_000)
squash_jit = jax.jit(leaky_squash)


def first_call():
    jax.clear_caches()  # forget the compiled program: this call traces and compiles
    return squash_jit(x)


t_first = timing("first", first_call, repeat=3)
t_steady = timing("steady", lambda: squash_jit(x), repeat=50)
ratio = record("ratio", t_first / t_steady, kind="ratio")
claim("ratio", ">=", 20, says="the first call takes at least 20 times the steady state")
print(f"first call {t_first}, later calls {t_steady}: {ratio} times as long")
