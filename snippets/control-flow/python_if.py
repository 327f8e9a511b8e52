import jax
import jax.numpy as jnp


# A scalar rule written the NumPy way: square values below 1, keep the rest.
def bend(x):
    if x < 1.0:  # Python needs a real True or False here
        return x * x
    return x


print("eager:", bend(jnp.float32(0.5)))  # a concrete array can answer the if
bend_jit = jax.jit(bend)
bend_jit(jnp.float32(0.5))
