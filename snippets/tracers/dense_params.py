import jax
import jax.numpy as jnp


def dense(W, b, x):
    return x @ W + b


closed = jax.make_jaxpr(dense)(
    jnp.zeros((3, 4)), jnp.zeros(4), jnp.zeros((5, 3))
)
for eqn in closed.eqns:
    print(eqn.primitive.name)
    for name, value in eqn.params.items():
        print(f"    {name} = {value!r}")
