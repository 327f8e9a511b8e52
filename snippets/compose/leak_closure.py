import jax
import jax.numpy as jnp


def make_scaler(x):
    def scale(y):
        return x * y  # closes over the tracer x

    return scale


holder = {}


def build(x):
    holder["scale"] = make_scaler(x)
    return x


jax.jit(build)(jnp.float32(3.0))
holder["scale"](2.0)
