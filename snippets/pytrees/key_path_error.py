import jax
import jax.numpy as jnp


def penalty(params):
    return jnp.sum(params["encoder"]["w"] ** 2)


# a string leaf
tagged = {
    "encoder": {"w": jnp.ones((3, 2)), "b": jnp.zeros(2)},
    "name": "tiny",
}
jax.jit(penalty)(tagged)
