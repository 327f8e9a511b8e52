import jax
import jax.numpy as jnp


def flatten_jnp(x):
    return x.reshape(jnp.prod(jnp.array(x.shape)))


jax.jit(flatten_jnp)(jnp.ones((2, 3)))
