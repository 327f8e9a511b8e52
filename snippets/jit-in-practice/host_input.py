import jax
import jax.numpy as jnp
import numpy as np

from bookexec.facts import record  # hidden


@jax.jit
def scale(x):
    return 2.0 * x


host = np.ones((1000, 1000))  # a NumPy array, in host memory
print("NumPy default dtype:", host.dtype)
record("numpy_dtype", str(host.dtype))  # hidden
with jax.transfer_guard("disallow"):  # refuse every implicit transfer
    try:
        scale(host)
    except jax.errors.JaxRuntimeError as err:
        print(f"{type(err).__name__}: {err}")

# transfer once, outside the timing
on_device = jax.device_put(host.astype(np.float32))
with jax.transfer_guard("disallow"):
    result = scale(on_device)  # no transfer left to refuse
print(
    "on_device:",
    on_device.dtype,
    on_device.devices(),
    "| result:",
    result.dtype,
)
print("jnp.asarray(host).dtype:", jnp.asarray(host).dtype)
record("jax_dtype", str(jnp.asarray(host).dtype))  # hidden
