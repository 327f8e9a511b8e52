# inverse comes from the block above
import jax.numpy as jnp

inverse(lambda x: jnp.sin(x) + 1.0)(jnp.array([0.5]))
