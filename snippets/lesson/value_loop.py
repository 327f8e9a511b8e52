import jax
import jax.numpy as jnp

RTOL = 1e-4  # stop when the cube is this close, relative to |a|


@jax.jit
def cube_root(a):
    guess = jnp.maximum(a, 1.0)
    # the step count depends on a's value
    while jnp.abs(guess**3 - a) > RTOL * jnp.abs(a):
        guess = guess - (guess**3 - a) / (3 * guess**2)
    return guess


cube_root(27.0)
