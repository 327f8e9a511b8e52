import jax.numpy as jnp
import numpy as np

x_np = np.array([3, 1, 2])
print("NumPy x.sort() returns:", x_np.sort(), " x is now:", x_np)

x = jnp.array([3, 1, 2])
print("JAX   x.sort() returns:", x.sort(), " x is still:", x)

try:
    jnp.add(x, x, out=x)  # NumPy writes the sum into x
except NotImplementedError as err:
    print("jnp.add(x, x, out=x):", type(err).__name__, "-", err)
