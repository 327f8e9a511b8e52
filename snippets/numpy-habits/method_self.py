import jax
import jax.numpy as jnp


class Scaler:
    def __init__(self, factor):
        self.factor = factor

    @jax.jit
    def apply(self, x):
        return x * self.factor


Scaler(2.0).apply(jnp.ones(3))
