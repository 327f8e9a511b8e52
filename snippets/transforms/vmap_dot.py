import jax
import jax.numpy as jnp

from bookexec.facts import record  # hidden


def agreement(p, q):  # two vectors of the same length in, a scalar out
    return p @ q


def contraction_of(prog):
    (only,) = prog.jaxpr.eqns  # each program below is a single dot_general
    return str(only.params["dimension_numbers"])


p, q = jnp.arange(6.0), jnp.ones(6)
rows = jnp.ones((10, 6))  # ten vectors, one per row
cols = jnp.ones((6, 10))  # ten vectors, one per column

one_pair = jax.make_jaxpr(agreement)(p, q)
shared = jax.make_jaxpr(jax.vmap(agreement, in_axes=(None, 0)))(p, rows)
both = jax.make_jaxpr(jax.vmap(agreement, in_axes=(1, 1)))(cols, cols)
print(one_pair)
print(shared)
print(both)
print("one pair:            ", contraction_of(one_pair))
record("single", contraction_of(one_pair))  # hidden
print("in_axes=(None, 0):   ", contraction_of(shared))
record("shared", contraction_of(shared))  # hidden
print("in_axes=(1, 1):      ", contraction_of(both))
record("both", contraction_of(both))  # hidden
