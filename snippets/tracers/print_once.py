import jax
import jax.numpy as jnp


@jax.jit
def scaled(x):
    print("tracing scaled with", x.shape, x.dtype)
    return x * 10


first = scaled(jnp.arange(3.0))
second = scaled(jnp.array([7.0, 8.0, 9.0]))
print("first: ", first)
print("second:", second)
