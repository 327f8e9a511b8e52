import jax
import jax.numpy as jnp

from bookexec.jax.stepper import stepper  # hidden


def smooth_step(x):
    y = jnp.tanh(3.0 * x)
    return 0.5 * y + 0.5


print(jax.make_jaxpr(smooth_step)(0.25))
stepper("steps", smooth_step, 0.25)  # hidden
