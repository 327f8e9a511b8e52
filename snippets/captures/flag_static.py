import jax
import jax.numpy as jnp


@jax.jit(static_argnames="use_relu")
def activate(x, use_relu):
    # a static argument is a plain Python value, part of the cache key
    if use_relu:
        return jnp.maximum(x, 0.0)
    return jnp.tanh(x)


x = jnp.array([-1.0, 0.5])
print("use_relu=True: ", activate(x, use_relu=True))
print("use_relu=False:", activate(x, use_relu=False))
print(activate.trace(x, use_relu=False).jaxpr)
try:
    activate(x, use_relu=[True])  # a list cannot be hashed
except ValueError as error:
    print("use_relu=[True]:", str(error).partition(".")[0])
