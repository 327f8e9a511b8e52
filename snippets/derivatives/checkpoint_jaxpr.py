import jax
import jax.numpy as jnp


def block(x):
    return jnp.sin(jnp.sin(x))


def model(x):
    return jnp.sum(jax.checkpoint(block)(x))


print(jax.make_jaxpr(jax.grad(model))(jnp.ones(3)))
