import jax.numpy as jnp
import numpy as np

# a dtype name stands for an array of it, a number for a Python scalar
pairs = [
    ("int8", "float16"),
    ("int16", "float16"),
    ("int32", "float32"),
    ("uint8", "int8"),
    ("uint32", "int32"),
    ("bfloat16", "float16"),
    ("int32", 2.0),
    ("float16", 2.0),
    ("uint8", 2),
]


def operand(x, zeros):
    return zeros(3, x) if isinstance(x, str) else x


print(f"{'operands':19} {'JAX':9} NumPy")
for a, b in pairs:
    in_jax = (operand(a, jnp.zeros) + operand(b, jnp.zeros)).dtype
    if "bfloat16" in (a, b):
        in_numpy = "(no bfloat16)"
    else:
        in_numpy = (operand(a, np.zeros) + operand(b, np.zeros)).dtype
    print(f"{a} + {b}".ljust(19), f"{in_jax!s:9}", in_numpy)
