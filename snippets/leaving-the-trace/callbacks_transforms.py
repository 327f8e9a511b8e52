# nothing from the blocks above: a second host function, squared
import functools

import jax
import jax.numpy as jnp
import numpy as np


def host_square(x):
    return np.square(np.asarray(x))


def square(x, method):
    out = jax.ShapeDtypeStruct(x.shape, x.dtype)
    return jax.pure_callback(host_square, out, x, vmap_method=method)


batch = jnp.arange(6.0).reshape(3, 2)
for method in ("sequential", "expand_dims", "broadcast_all"):
    batched = jax.vmap(functools.partial(square, method=method))
    kinds = [e.primitive.name for e in jax.make_jaxpr(batched)(batch).jaxpr.eqns]
    print(f"vmap_method={method!r}: {kinds}", batched(batch)[1])
try:
    jax.vmap(functools.partial(square, method=None))(batch)  # no vmap_method given
except Exception as err:
    print(type(err).__name__ + ":", str(err).splitlines()[0])
