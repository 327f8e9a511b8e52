import jax.numpy as jnp

x = jnp.arange(5.0)
x[1] = 9.0  # fine for a NumPy array, refused for a JAX array
