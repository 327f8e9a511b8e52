import jax
import jax.numpy as jnp


def remember_fixed(x):
    seen = x + 0.0  # what we wanted to keep
    return x + 1.0, seen  # an output leaves the trace as an array


out, seen = jax.jit(remember_fixed)(jnp.float32(2.0))
print(type(seen).__name__, seen, jnp.sin(seen))
