import jax
import jax.numpy as jnp

from bookexec.facts import record


def dot(u, v):  # one pair of vectors in, one scalar out
    return jnp.dot(u, v)


def dimension_numbers(closed):
    (eqn,) = closed.jaxpr.eqns
    return eqn.params["dimension_numbers"]


single = jax.make_jaxpr(dot)(jnp.ones(5), jnp.ones(5))
batched = jax.make_jaxpr(jax.vmap(dot))(jnp.ones((8, 5)), jnp.ones((8, 5)))
print(single)
print(batched)
print("plain dot:    ", record("plain", str(dimension_numbers(single))))
print("vmap(dot):    ", record("batched", str(dimension_numbers(batched))))

# Batch the first operand along its axis 1 instead of axis 0.
mixed = jax.make_jaxpr(jax.vmap(dot, in_axes=(1, 0)))(jnp.ones((5, 8)), jnp.ones((8, 5)))
print("in_axes=(1,0):", record("mixed", str(dimension_numbers(mixed))))
