import jax.numpy as jnp

jnp.sum([1, 2, 3])  # NumPy accepts a list here
