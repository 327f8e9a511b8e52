import jax
import jax.numpy as jnp

# lax: JAX's lower-level primitives
from jax import lax

from bookexec.jax.stepper import stepper  # hidden


def wave(x):
    return lax.cond(x > 0, jnp.sin, jnp.cos, x)


batched = jax.vmap(wave)
print(batched(jnp.array([-1.0, 0.0, 2.0])))
closed = jax.make_jaxpr(batched)(jnp.zeros(3))
print(closed)
print(
    "primitives:", sorted({eqn.primitive.name for eqn in closed.jaxpr.eqns})
)
stepper("steps", batched, jnp.zeros(3), title="jax.vmap(wave)")  # hidden
