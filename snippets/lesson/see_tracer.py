import jax
import jax.numpy as jnp


@jax.jit
def halve(x):
    print("tracing with", x)
    return x / 2


print(halve(jnp.array(8.0)))
print(halve(jnp.array(3.0)))  # same shape and dtype: the compiled program runs, Python doesn't
print(halve(jnp.array([1.0, 2.0])))  # a new shape: traced again
