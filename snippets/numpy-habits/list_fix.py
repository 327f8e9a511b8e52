import jax
import jax.numpy as jnp

from bookexec.facts import record  # hidden

values = [1, 2, 3]
print("jnp.sum(jnp.asarray(values)):", jnp.sum(jnp.asarray(values)))


def total(v):
    return jnp.sum(jnp.asarray(v))


# a list is a pytree: one input per element
closed = jax.make_jaxpr(total)(values)
print(closed)
record("list_inputs", len(closed.jaxpr.invars))  # hidden
