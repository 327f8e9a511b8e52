import jax
import jax.numpy as jnp

x = jnp.array([3.0, -1.0, 4.0, -1.5, 5.0])
print("eager:", x[x > 0])  # works: the mask has values
jax.jit(lambda x: x[x > 0])(x)
