import jax
import numpy as np

rng = np.random.default_rng(
    seed=0
)  # NumPy's generator: hidden, mutable state


@jax.jit
def add_noise(x):
    return x + rng.normal()  # impure: reads and advances rng


print(add_noise(0.0))
print(add_noise(0.0))  # same "noise" again
print(add_noise(10.0))  # and again
print(add_noise.trace(0.0).jaxpr)
