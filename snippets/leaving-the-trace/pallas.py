import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def add_kernel(x_ref, y_ref, o_ref):
    # reads and writes whole blocks through refs
    o_ref[...] = x_ref[...] + y_ref[...]


def add(x, y, interpret):
    out = jax.ShapeDtypeStruct(x.shape, x.dtype)
    return pl.pallas_call(add_kernel, out_shape=out, interpret=interpret)(
        x, y
    )


a, c = jnp.arange(8.0), jnp.ones(8)
print(add(a, c, interpret=True))
print(jax.make_jaxpr(lambda a, c: add(a, c, True))(a, c))
