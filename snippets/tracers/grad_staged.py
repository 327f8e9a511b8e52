import jax
import jax.numpy as jnp


def wave(x):
    return jnp.sin(x) * x


def kink(x):
    if x > 0:  # a Python if on the value of x
        return x * x
    return -x


print(jax.make_jaxpr(jax.grad(wave))(3.0))
try:
    jax.make_jaxpr(jax.grad(kink))(3.0)
except jax.errors.TracerBoolConversionError as error:
    print("make_jaxpr(grad(kink)):", type(error).__name__)
