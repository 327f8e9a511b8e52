import jax
import jax.numpy as jnp
import numpy as np


def wave_np(x):
    return np.sin(x) * 2  # a NumPy function on the data


jax.jit(wave_np)(jnp.arange(3.0))
