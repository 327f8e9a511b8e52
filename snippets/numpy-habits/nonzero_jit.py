import jax
import jax.numpy as jnp

jax.jit(lambda m: jnp.nonzero(m))(x > 0)  # x from the block above
