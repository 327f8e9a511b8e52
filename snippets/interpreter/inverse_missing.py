# inverse comes from the block above
import jax.numpy as jnp


def shift(x):  # jnp.sin(1.0) comes from constants alone: a known operand
    _ = jnp.cos(x)  # dead code: make_jaxpr keeps it, and nothing reads it
    return x * 2.0 + jnp.sin(1.0)


print("inverse(shift):", inverse(shift)(shift(jnp.array([2.0]))))
try:
    inverse(lambda x: x * x + 1.0)(jnp.array([2.0]))
except NotImplementedError as err:
    print("NotImplementedError:", err)
inverse(lambda x: jnp.sin(x) + 1.0)(jnp.array([0.5]))
