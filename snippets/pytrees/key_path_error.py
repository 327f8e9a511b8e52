import jax
import jax.numpy as jnp


def penalty(params):
    return jnp.sum(params["encoder"]["w"] ** 2)


tagged = dict(model, name="tiny")  # a string among the leaves
jax.jit(penalty)(tagged)
