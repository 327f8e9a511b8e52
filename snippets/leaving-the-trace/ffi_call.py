import jax
import jax.numpy as jnp
import numpy as np


def rms_norm(x, eps=1e-5):
    # the result type, declared as for a callback
    out = jax.ShapeDtypeStruct(x.shape, x.dtype)
    call = jax.ffi.ffi_call("rms_norm", out, vmap_method="broadcast_all")
    # keyword arguments become the kernel's attributes
    return call(x, eps=np.float32(eps))


x = jnp.ones((2, 3))
print(jax.make_jaxpr(rms_norm)(x))
lowered = jax.jit(rms_norm).lower(x).as_text()
print(
    next(
        line.strip()
        for line in lowered.splitlines()
        if "custom_call" in line
    )
)
print(
    jax.make_jaxpr(jax.vmap(rms_norm))(jnp.ones((4, 2, 3)))
    .eqns[0]
    .outvars[0]
    .aval
)
try:
    jax.jit(rms_norm)(x)
except Exception as err:
    print(type(err).__name__, str(err).splitlines()[0][:300])
