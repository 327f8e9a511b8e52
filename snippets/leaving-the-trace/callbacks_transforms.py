# nothing from the blocks above: a second host function, which notes what it
# is given
import functools

import jax
import jax.numpy as jnp
import numpy as np

shapes_seen = []


def host_add(x, y):
    shapes_seen.append((np.shape(x), np.shape(y)))
    return np.asarray(x) + np.asarray(y)


def add(x, y, method):
    out = jax.ShapeDtypeStruct(x.shape, x.dtype)
    return jax.pure_callback(host_add, out, x, y, vmap_method=method)


# rows batched, shift shared
rows, shift = jnp.arange(6.0).reshape(3, 2), jnp.ones(2)
methods = (
    "sequential",
    "sequential_unrolled",
    "expand_dims",
    "broadcast_all",
)
for method in methods:
    batched = jax.vmap(
        functools.partial(add, method=method), in_axes=(0, None)
    )
    eqns = jax.make_jaxpr(batched)(rows, shift).jaxpr.eqns
    kinds = [
        e.primitive.name
        + (f"(unroll={e.params['unroll']})" if "unroll" in e.params else "")
        for e in eqns
    ]
    shapes_seen.clear()
    # wait for the result: the host function runs as the program does
    result = jax.block_until_ready(jax.jit(batched)(rows, shift))
    print(f"{method:19} {kinds}  host saw {shapes_seen}  row 1: {result[1]}")
try:
    # none given
    jax.vmap(functools.partial(add, method=None), in_axes=(0, None))(
        rows, shift
    )
except Exception as err:
    print(type(err).__name__ + ":", str(err).splitlines()[0])

# For old code only: what the removed vectorized=True did. New code picks
# one of the methods above, usually "expand_dims".
shapes_seen.clear()
legacy = functools.partial(add, method="legacy_vectorized")
jax.block_until_ready(
    jax.jit(jax.vmap(legacy, in_axes=(0, None)))(rows, shift)
)
print(f"legacy_vectorized, old code only: host saw {shapes_seen}")
