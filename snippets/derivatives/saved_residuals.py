# block comes from the block above
import jax
import jax.numpy as jnp
from jax.ad_checkpoint import print_saved_residuals

print("plain:")
print_saved_residuals(lambda x: jnp.sum(block(x)), jnp.ones(3))
print("checkpointed:")
print_saved_residuals(
    lambda x: jnp.sum(jax.checkpoint(block)(x)), jnp.ones(3)
)
