import jax
import jax.numpy as jnp


def energy(theta):  # a scalar loss: the sum of squared sines
    return jnp.sum(jnp.sin(theta) ** 2)


angles = jnp.linspace(-1.0, 1.0, 4)
grad_prog = jax.make_jaxpr(jax.grad(energy))(angles)
print(grad_prog)
