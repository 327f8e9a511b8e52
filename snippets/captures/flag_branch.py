import jax
import jax.numpy as jnp

use_relu = True


@jax.jit
def activate(x):
    if use_relu:  # a Python global, read once, at trace time
        return jnp.maximum(x, 0.0)
    return jnp.tanh(x)


x = jnp.array([-1.0, 0.5])
print("use_relu=True: ", activate(x))
use_relu = False
print("use_relu=False:", activate(x), "(still the relu branch)")
print("eager tanh:    ", jnp.tanh(x))
