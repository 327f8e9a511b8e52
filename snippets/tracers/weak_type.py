import jax
import jax.numpy as jnp
import numpy as np


def show(x):
    print(repr(x))
    return x


jax.jit(show)(1.0)  # a Python float
jax.jit(show)(jnp.float32(1.0))  # a float32 array
print("jnp.array(1.0):            ", jax.typeof(jnp.array(1.0)))
print("jnp.arange(3) * 2.0:       ", jax.typeof(jnp.arange(3) * 2.0))
half = jnp.ones(3, dtype=jnp.float16)
print("float16 + 1.0:             ", (half + 1.0).dtype)
print("float16 + jnp.float32(1.0):", (half + jnp.float32(1.0)).dtype)
print("NumPy: float16 + 1.0:      ", (np.ones(3, np.float16) + 1.0).dtype)
