import jax
import jax.numpy as jnp


def peek(x):
    print("repr:        ", repr(x))
    print("jax.typeof:  ", jax.typeof(x))
    print("shape, dtype:", x.shape, x.dtype)
    try:
        x.tolist()  # asks for the numbers inside
    except jax.errors.ConcretizationTypeError as error:
        print("x.tolist():  ", type(error).__name__)
    return x * 2


jax.jit(peek)(jnp.ones((4, 2)))
