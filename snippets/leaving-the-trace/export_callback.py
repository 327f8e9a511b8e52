# predict, x and export come from the blocks above
import jax
import numpy as np
# internal and version-bound: JAX has no public name for its list of stable custom calls
from jax._src.export._export import _CUSTOM_CALL_TARGETS_GUARANTEED_STABLE as stable


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
for target in ("tpu_custom_call", "mosaic_gpu_v2", "__gpu$xla.gpu.triton"):
    print(f"{target}: {'stable' if target in stable else 'not on the list'}")
