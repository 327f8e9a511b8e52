import jax
import jax.numpy as jnp

from bookexec.facts import claim, record, timings

a = jnp.ones((1000, 1000))
matmul_jit = jax.jit(jnp.matmul)
# one operation: one dispatch either way
t = timings({"eager": lambda: a @ a, "jitted": lambda: matmul_jit(a, a)}, repeat=7)
t_eager, t_jit = t["eager"], t["jitted"]
gain = record("gain", t_eager / t_jit, kind="ratio")
claim("gain", "<=", 3, says="jit speeds up a single large matrix product less than 3 times")
print(f"one 1000 by 1000 product: eager {t_eager}, jitted {t_jit}, a gain of {gain}")
