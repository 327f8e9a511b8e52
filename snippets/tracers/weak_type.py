import jax
import jax.numpy as jnp


def show(x):
    print(repr(x))
    return x


jax.jit(show)(1.0)  # a Python float
jax.jit(show)(jnp.float32(1.0))  # a float32 array
