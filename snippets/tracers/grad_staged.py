import jax
import jax.numpy as jnp


def wave(x):
    return jnp.sin(x) * x


print(jax.make_jaxpr(jax.grad(wave))(3.0))
try:
    jax.make_jaxpr(jax.grad(kink))(3.0)  # kink has a Python if on x
except jax.errors.TracerBoolConversionError as error:
    print("make_jaxpr(grad(kink)):", type(error).__name__)
