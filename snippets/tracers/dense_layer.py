import jax
import jax.numpy as jnp


def dense(W, b, x):
    return x @ W + b


W = jnp.zeros((3, 4))
b = jnp.zeros(4)
x = jnp.zeros((5, 3))
print(jax.make_jaxpr(dense)(W, b, x))
