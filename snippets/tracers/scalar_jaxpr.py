import jax
import jax.numpy as jnp


def smooth_step(x):
    y = jnp.tanh(3.0 * x)
    return 0.5 * y + 0.5


print(jax.make_jaxpr(smooth_step)(0.25))
