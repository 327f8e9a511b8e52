import jax
import jax.numpy as jnp


@jax.jit
def clip_negative(x):
    print("body sees:", x)
    if x.min() < 0:  # a Python if on a value: fails under jit
        return jnp.maximum(x, 0.0)
    return x


with jax.disable_jit():
    print(clip_negative(jnp.array([1.0, -2.0])))
    print(clip_negative(jnp.array([3.0, 4.0])))
try:
    clip_negative(jnp.array([1.0, -2.0]))
except jax.errors.TracerBoolConversionError as err:
    print("without disable_jit:", type(err).__name__)
