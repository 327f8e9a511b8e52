import jax
import jax.numpy as jnp
from jax.extend.core import Var


def energy(theta):  # a scalar loss: the sum of squared sines
    return jnp.sum(jnp.sin(theta) ** 2)


angles = jnp.linspace(-1.0, 1.0, 4)
grad_prog = jax.make_jaxpr(jax.grad(energy))(angles)
print(grad_prog)

# Look for results that no later equation reads and that are not outputs
# either.
body = grad_prog.jaxpr
readers = {v for q in body.eqns for v in q.invars if isinstance(v, Var)}
readers |= set(body.outvars)
for q in body.eqns:
    for out in q.outvars:
        if out not in readers:
            print(
                "unread:",
                q.primitive.name,
                "->",
                type(out).__name__,
                out.aval,
            )
