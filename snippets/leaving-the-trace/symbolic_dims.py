# b, predict and export come from the blocks above
import jax
import jax.numpy as jnp

# Decided: the same answer for every b >= 1 (every dimension variable is at
# least 1).
print(
    "b >= 1:", b >= 1, "| b + 1 > b:", b + 1 > b, "| 2*b >= b:", 2 * b >= b
)
# equality: the same expression, or not
print("b == 4:", b == 4, "| b == b:", b == b)
try:
    # true for every b >= 1, but JAX cannot prove it
    print("b * b >= b:", b * b >= b)
except Exception as err:
    print("b * b >= b:", type(err).__name__)
print("b // 2 =", b // 2, "| b % 2 =", b % 2, "| 4*b // 2 =", (4 * b) // 2)

rows, cols = export.symbolic_shape("rows, cols")  # two variables, one scope
flat = export.export(jax.jit(lambda m: m.reshape(-1)))(
    jax.ShapeDtypeStruct((rows, cols), jnp.float32)
)
print(
    "in:",
    flat.in_avals,
    "out:",
    flat.out_avals,
    "| a 2x5 call:",
    flat.call(jnp.ones((2, 5))).shape,
)
(n,) = export.symbolic_shape("n")  # a second, separate scope
try:
    b + n
except ValueError as err:
    print("b + n:", str(err).splitlines()[0])
