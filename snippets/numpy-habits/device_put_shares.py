import jax
import jax.numpy as jnp
import numpy as np

from bookexec.facts import record  # hidden

# A NumPy array whose data starts on a 64-byte boundary, as any array's data may by chance.
align = 64
buffer = np.zeros(16 + align // 4, dtype=np.float32)
start = (-buffer.ctypes.data % align) // buffer.itemsize
x_np = buffer[start : start + 16]
x_np[:] = np.arange(16.0)
record("alignment", align)  # hidden

placed = jax.device_put(x_np)  # on the CPU it may keep x_np's memory (jax-ml/jax#37830)
copied = jnp.array(x_np)  # always a copy
x_np[0] = -1.0  # a write after handing the array to JAX
print("jax.device_put sees the write:", placed[0], "on", placed.device)
print("jnp.array sees it:            ", copied[0])
