import jax
import jax.numpy as jnp


def penalty(params):
    return jnp.sum(params["encoder"]["w"] ** 2)


tagged = {"encoder": {"w": jnp.ones((3, 2)), "b": jnp.zeros(2)}, "name": "tiny"}  # a string leaf
jax.jit(penalty)(tagged)
