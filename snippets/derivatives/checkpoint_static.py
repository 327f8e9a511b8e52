import jax
import jax.numpy as jnp


def repeat_sin(x, n):
    for _ in range(n):  # a Python loop: n must be a plain int while tracing
        x = jnp.sin(x)
    return x


try:
    jax.grad(jax.checkpoint(repeat_sin))(1.0, 3)
except jax.errors.TracerIntegerConversionError as error:
    print(type(error).__name__ + ":", str(error).splitlines()[0])
static = jax.checkpoint(repeat_sin, static_argnums=(1,))
print("with static_argnums=(1,):", jax.grad(static)(1.0, 3))
print("without checkpoint:     ", jax.grad(repeat_sin)(1.0, 3))
