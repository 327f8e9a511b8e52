import jax.numpy as jnp
import numpy as np

idx = np.array([0, 0, 2])  # position 0 twice

counts = np.zeros(4)
counts[idx] += 1
print("NumPy x[idx] += 1:         ", counts)

counts = np.zeros(4)
np.add.at(counts, idx, 1)
print("NumPy np.add.at(x, idx, 1):", counts)

print("JAX x.at[idx].add(1):      ", jnp.zeros(4).at[idx].add(1))
