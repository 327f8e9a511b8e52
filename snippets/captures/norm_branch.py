import jax
import jax.numpy as jnp

LIMIT = 1.0  # longest vector we let through unchanged


@jax.jit
def clip_norm(v):
    length = jnp.linalg.norm(v)
    if length > LIMIT:  # length is a tracer: no True or False to hand to Python
        return v * (LIMIT / length)
    return v


clip_norm(jnp.array([3.0, 4.0]))
