import jax
import jax.numpy as jnp

from bookexec.facts import claim, record, timing

a = jnp.ones((1000, 1000))
matmul_jit = jax.jit(jnp.matmul)
t_eager = timing("eager", lambda: a @ a, repeat=7)  # one operation: one dispatch either way
t_jit = timing("jitted", lambda: matmul_jit(a, a), repeat=7)
gain = record("gain", t_eager / t_jit, kind="ratio")
claim("gain", "<=", 3, says="jit speeds up a single large matrix product less than 3 times")
print(f"one 1000 by 1000 product: eager {t_eager}, jitted {t_jit}, a gain of {gain}")
