# predict, x and export come from the blocks above
import jax
import numpy as np


def doubled_on_host(v):
    out = jax.ShapeDtypeStruct(v.shape, v.dtype)
    return jax.pure_callback(lambda a: np.asarray(a) * 2, out, v)


def printed(v):
    jax.debug.print("v = {}", v)
    return v * 2


for fn in (doubled_on_host, printed):
    try:
        export.export(jax.jit(fn))(x)
    except NotImplementedError as err:
        print(f"{fn.__name__}: {err}")
