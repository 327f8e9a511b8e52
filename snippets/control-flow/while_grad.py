import jax
import jax.numpy as jnp

# lax: JAX's lower-level primitives
from jax import lax


def grow_while(x):
    return lax.while_loop(lambda v: v < 100.0, lambda v: v * 2, x)


jax.grad(grow_while)(jnp.float32(3.0))
