import jax
import jax.numpy as jnp


def describe(x):
    print("inside jit:", jax.typeof(x))
    return x.sum()


x = jnp.ones((4, 2))
print("outside:   ", jax.typeof(x))
print("a Python 1.0:", jax.typeof(1.0))
jax.jit(describe)(x)
