import jax.numpy as jnp
from jax import lax


def add_half(i, total):
    return total + 0.5


# an int32 carry, a float32 body result
lax.fori_loop(0, 3, add_half, jnp.int32(0))
