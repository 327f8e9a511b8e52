import jax
import jax.numpy as jnp


def sum_sin_sq(x):
    return jnp.sum(jnp.sin(x) ** 2)


print(jax.jit(jax.grad(sum_sin_sq)).lower(jnp.ones(3)).as_text())
