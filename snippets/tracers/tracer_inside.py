import jax
import jax.numpy as jnp


def inspect(x):
    print("type:          ", type(x).__name__)
    print("repr:          ", repr(x))
    print("abstract value:", x.aval)
    print("shape, dtype:  ", x.shape, x.dtype)
    return x * 2


jax.jit(inspect)(jnp.ones((4, 2)))
