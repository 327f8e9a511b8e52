import jax
import jax.numpy as jnp
from jax import lax

from bookexec.facts import record  # hidden


def wave_if(x, use_sin):
    return lax.cond(use_sin, jnp.sin, jnp.cos, x)


# in_axes=(0, None): map over x's leading axis, hand every element the same
# use_sin
batched = jax.vmap(wave_if, in_axes=(0, None))
print(batched(jnp.array([-1.0, 0.0, 2.0]), True))
closed = jax.make_jaxpr(batched)(jnp.zeros(3), True)
print(closed)
names = sorted({eqn.primitive.name for eqn in closed.jaxpr.eqns})
print("primitives:", ", ".join(names))
codes = [f"`{n}`" for n in names]  # hidden
record("primitives", ", ".join(codes[:-1]) + " and " + codes[-1])  # hidden
