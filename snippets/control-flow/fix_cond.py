import jax
import jax.numpy as jnp

# lax: JAX's lower-level primitives (cond, while_loop, scan and more)
from jax import lax


def squared(v):
    return v * v


def unchanged(v):
    return v


def bend_cond(x):
    return lax.cond(x < 1.0, squared, unchanged, x)


bend_fast = jax.jit(bend_cond)
print(bend_fast(jnp.float32(0.5)), bend_fast(jnp.float32(4.0)))
print(jax.make_jaxpr(bend_cond)(jnp.float32(0.5)))
