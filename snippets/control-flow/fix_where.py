import jax
import jax.numpy as jnp


def leaky_where(x):
    return jnp.where(x > 0, x, 0.5 * x)


print(jax.jit(leaky_where)(jnp.array([-2.0, 0.5, 3.0])))
print(jax.make_jaxpr(leaky_where)(jnp.float32(-2.0)))
