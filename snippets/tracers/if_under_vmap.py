import jax
import jax.numpy as jnp

jax.vmap(kink)(jnp.array([3.0, -2.0]))
