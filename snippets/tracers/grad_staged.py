import jax
import jax.numpy as jnp


def wave(x):
    return jnp.sin(x) * x


print(jax.make_jaxpr(jax.grad(wave))(3.0))
try:
    jax.make_jaxpr(jax.grad(kink))(3.0)  # kink has a Python if on x
except jax.errors.TracerBoolConversionError as error:
    print("make_jaxpr(grad(kink)):", type(error).__name__)

# linearize evaluates wave at 3.0 now and records its linear part, to apply later
value, slope_times = jax.linearize(wave, 3.0)
print("linearize: wave(3.0) =", value, " slope at 3.0 times 2 =", slope_times(2.0))
