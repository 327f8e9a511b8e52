import jax
import jax.numpy as jnp
from jax.extend.core import Var


def sum_sin_sq(x):
    return jnp.sum(jnp.sin(x) ** 2)


closed = jax.make_jaxpr(jax.grad(sum_sin_sq))(jnp.ones(3))
print(closed)

# Which equations produce a value that no later equation, and no output, reads?
jaxpr = closed.jaxpr
read = {v for e in jaxpr.eqns for v in e.invars if isinstance(v, Var)} | set(jaxpr.outvars)
for eqn in jaxpr.eqns:
    for v in eqn.outvars:
        if v not in read:
            print("never read:", eqn.primitive.name, "->", type(v).__name__, v.aval)
