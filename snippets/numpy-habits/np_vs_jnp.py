import jax
import jax.numpy as jnp
import numpy as np


def flatten_np(x):
    return x.reshape(np.prod(x.shape))  # a Python integer while tracing


def scale_jnp(x):
    return x / jnp.prod(jnp.array(x.shape))  # a traced array


m = jnp.ones((2, 3))
print(jax.make_jaxpr(flatten_np)(m))
print(jax.make_jaxpr(scale_jnp)(m))
print("np.prod of the shape while tracing:", type(np.prod(m.shape)).__name__)
