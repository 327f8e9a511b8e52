import jax.numpy as jnp
import numpy as np

print("NumPy:", np.array(2**31).dtype)  # NumPy widens to a 64-bit integer
jnp.array(2**31)  # one more than the largest int32
