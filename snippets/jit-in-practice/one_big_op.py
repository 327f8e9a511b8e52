import jax
import jax.numpy as jnp

from bookexec.facts import claim, record, timings

a = jnp.ones((1000, 1000))
matmul_jit = jax.jit(jnp.matmul)
# one operation: one dispatch either way
t = timings({"eager": lambda: a @ a, "jitted": lambda: matmul_jit(a, a)}, repeat=7)
t_eager, t_jit = t["eager"], t["jitted"]
ratio = record("ratio", t_eager / t_jit, kind="ratio")
claim("ratio", "<=", 3, says="eager takes less than 3 times as long as jitted")
claim("ratio", ">=", 1 / 3, says="jitted takes less than 3 times as long as eager")
print(f"one 1000 by 1000 product: eager {t_eager}, jitted {t_jit}, a ratio of {ratio}")
