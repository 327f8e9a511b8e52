import jax
import jax.numpy as jnp


def remember_fixed(x):
    doubled = x * 2.0  # what we wanted to keep
    return x + 1.0, doubled  # an output leaves the trace as an array


out, doubled = jax.jit(remember_fixed)(jnp.float32(2.0))
print(type(doubled).__name__, doubled, jnp.sin(doubled))
