import jax
import jax.numpy as jnp
import numpy as np

from bookexec.facts import record  # hidden

align = 64
record("alignment", align)  # hidden


def aligned(dtype):
    """Sixteen values whose data starts on a 64-byte boundary, as any array's
    may by chance."""
    size = 16 * np.dtype(dtype).itemsize
    buffer = np.zeros(size + align, dtype=np.uint8)
    start = -buffer.ctypes.data % align
    x = buffer[start : start + size].view(dtype)
    x[:] = np.arange(16.0)
    return x


x_np = aligned(np.float32)
# on the CPU it may keep x_np's memory (jax-ml/jax#37830)
placed = jax.device_put(x_np)
copied = jnp.array(x_np)  # always a copy
# NumPy's default dtype, which JAX turns into float32 (x64 off)
x64_np = aligned(np.float64)
placed64 = jax.device_put(x64_np)
# float32 and aligned, but every other element
strided_np = aligned(np.float32)[::2]
placed_strided = jax.device_put(strided_np)
# writes after handing the arrays to JAX
x_np[0] = x64_np[0] = strided_np[0] = -1.0
print("jax.device_put sees the write:", placed[0], "on", placed.device)
print("jnp.array sees it:            ", copied[0])
print("from float64, device_put sees:", placed64[0], "as", placed64.dtype)
print("strided view, device_put sees:", placed_strided[0])
