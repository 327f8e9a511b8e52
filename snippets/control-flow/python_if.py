import jax
import jax.numpy as jnp


def leaky(x):
    if x > 0:  # asks the tracer for a Python bool
        return x
    return 0.5 * x


print("eager:", leaky(jnp.float32(-2.0)))  # a concrete array: the if just works
leaky_fast = jax.jit(leaky)
leaky_fast(jnp.float32(-2.0))
