# predict, w, b and export come from the blocks above
import jax
import jax.numpy as jnp


def halve_if_large(x):
    # a Python comparison of a symbolic dimension: not decidable
    if x.shape[0] > 4:
        return x[: x.shape[0] // 2]
    return x


export.export(jax.jit(halve_if_large))(
    jax.ShapeDtypeStruct((b, 3), jnp.float32)
)
