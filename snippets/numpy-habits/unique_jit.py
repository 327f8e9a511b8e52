import jax
import jax.numpy as jnp

jax.jit(lambda v: jnp.unique(v))(jnp.array([2, 7, 2, 1]))
