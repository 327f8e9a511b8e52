import jax
import jax.numpy as jnp
import numpy as np

a_np = np.array([10, 20])
b_np = a_np  # a second name for the same NumPy array
b_np += 10  # NumPy adds in place, so a_np sees it too
print("NumPy: a =", a_np, " b =", b_np)

a = jnp.array([10, 20])
b = a
b += 10  # jax.Array has no __iadd__: Python runs b = b + 10 and rebinds b
print("JAX:   a =", a, " b =", b, " b is a:", b is a)
print("jax.Array defines __iadd__:", "__iadd__" in vars(jax.Array))
