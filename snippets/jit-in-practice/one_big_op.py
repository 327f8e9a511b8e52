import jax
import jax.numpy as jnp

from bookexec.facts import claim, record, timings  # hidden

a = jnp.ones((1000, 1000))
matmul_jit = jax.jit(jnp.matmul)
# one operation: one dispatch either way; fastest is the helper of the first
# block
t = fastest(
    {"eager": lambda: a @ a, "jitted": lambda: matmul_jit(a, a)}, repeat=7
)
# hidden: begin
t = timings(
    {"eager": lambda: a @ a, "jitted": lambda: matmul_jit(a, a)}, repeat=7
)
# hidden: end
t_eager, t_jit = t["eager"], t["jitted"]
ratio = t_eager / t_jit
# hidden: begin
ratio = record("ratio", ratio, kind="ratio")
claim(
    "ratio", "<=", 3, says="eager takes less than 3 times as long as jitted"
)
claim(
    "ratio",
    ">=",
    1 / 3,
    says="jitted takes less than 3 times as long as eager",
)
# hidden: end
print(
    f"one 1000 by 1000 product: eager {t_eager:.3g}, jitted {t_jit:.3g}, a "
    f"ratio of {ratio:.3g}"
)
