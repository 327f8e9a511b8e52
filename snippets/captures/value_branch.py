import jax
import jax.numpy as jnp


@jax.jit
def magnitude(x):
    if x > 0:  # x is a tracer: it has no True or False to give
        return x
    return -x


magnitude(jnp.float32(-3.0))
