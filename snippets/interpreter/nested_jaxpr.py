# evaluate comes from the block above
import jax
import jax.numpy as jnp


@jax.jit
def inner(v):
    return jnp.exp(v) * 2.0


def outer(v):
    return inner(v).sum() + jnp.cos(v[0])


nested = jax.make_jaxpr(outer)(jnp.arange(3.0))
print(nested)
print([eqn.primitive.name for eqn in nested.eqns])
print("sub-jaxpr of the jit equation:", nested.eqns[0].params["jaxpr"])
print(
    evaluate(nested, nested.consts, jnp.arange(3.0)),
    outer(jnp.arange(3.0)),
)
