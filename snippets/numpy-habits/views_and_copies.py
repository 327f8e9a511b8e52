import jax.numpy as jnp
import numpy as np

x_np = np.arange(6.0, dtype=np.float32)
head = x_np[:3]  # a NumPy slice is a view: it shares x_np's memory
head[0] = 99.0
print("NumPy array after writing into a slice of it:", x_np)

x = jnp.array(x_np)  # copies the data into a buffer JAX owns
x_np[1] = -1.0
print("the NumPy array, changed after the copy:     ", x_np)
print("the JAX array made before that change:       ", x)

back = np.asarray(x)  # NumPy's view of that buffer is read-only
print("np.asarray(x) is writeable:", back.flags.writeable)
try:
    back[0] = 5.0
except ValueError as error:
    print("writing into it:", error)
