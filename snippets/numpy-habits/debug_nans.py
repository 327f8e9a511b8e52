import jax
import jax.numpy as jnp


@jax.jit
def log_scale(x):
    return jnp.log(x) * 2.0


print("without the flag:", log_scale(jnp.array([1.0, -1.0])))
with jax.debug_nans(True):
    log_scale(jnp.array([1.0, -1.0]))
