import jax
import jax.numpy as jnp

step = jax.jit(lambda x: x + 1.0, donate_argnums=0)
x = jnp.ones(3)
y = step(x)  # x's buffer may now hold y
print("result:", y)
print("x.is_deleted():", x.is_deleted())
try:
    print(x)
except RuntimeError as error:
    print("reading x:", type(error).__name__, "-", error)
