import jax
import jax.numpy as jnp


def kink(x):
    if x > 0:  # a Python if on the value of x
        return x * x
    return -x


# both positive: every element wants the same branch
agreeing = jnp.array([3.0, 5.0])
for name, call in [
    ("jit", lambda: jax.jit(kink)(3.0)),
    ("vmap", lambda: jax.vmap(kink)(agreeing)),
]:
    try:
        call()
    except jax.errors.TracerBoolConversionError as error:
        print(f"{name}: {type(error).__name__}: {error}\n")
