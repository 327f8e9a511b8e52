import operator

import jax
import jax.numpy as jnp

params = {
    "dense": {"w": jnp.ones((4, 8)), "b": jnp.zeros(8)},
    "readout": jnp.full(8, jnp.nan),
}

sizes = jax.tree.map(jnp.size, params)
print("sizes:", sizes)
print("parameters:", jax.tree.reduce(operator.add, sizes, 0))


@jax.jit
def all_finite(tree):
    # one bool[] per leaf
    finite = jax.tree.map(lambda a: jnp.isfinite(a).all(), tree)
    print("per leaf:", finite)
    return jax.tree.reduce(jnp.logical_and, finite, True)


print("all finite:", all_finite(params))
print("no leaves:", all_finite({"bias": None}))
