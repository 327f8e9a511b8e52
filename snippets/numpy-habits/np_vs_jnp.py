import math

import jax
import jax.numpy as jnp
import numpy as np


def scale_static(x):
    # a Python int while tracing (x.size is the same number)
    return x / math.prod(x.shape)


def scale_traced(x):
    return x / jnp.prod(jnp.array(x.shape))  # a traced array


m = jnp.ones((2, 3))
print(jax.make_jaxpr(scale_static)(m))
print(jax.make_jaxpr(scale_traced)(m))
print("math.prod of the shape:", type(math.prod(m.shape)).__name__)
print("np.prod of a scalar's shape:", repr(np.prod(jnp.float32(3).shape)))
