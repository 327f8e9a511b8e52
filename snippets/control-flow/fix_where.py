import jax
import jax.numpy as jnp


# Both candidates are computed for every element; where keeps one of them.
def bend_where(x):
    return jnp.where(x < 1.0, x * x, x)


print(jax.jit(bend_where)(jnp.array([0.5, -3.0, 4.0])))
print(jax.make_jaxpr(bend_where)(jnp.float32(0.5)))
