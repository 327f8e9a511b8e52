import jax
import jax.numpy as jnp
from jax import lax


def leaky_cond(x):
    return lax.cond(x > 0, lambda v: v, lambda v: 0.5 * v, x)


print(jax.jit(leaky_cond)(jnp.float32(-2.0)), jax.jit(leaky_cond)(jnp.float32(3.0)))
print(jax.make_jaxpr(leaky_cond)(jnp.float32(-2.0)))
