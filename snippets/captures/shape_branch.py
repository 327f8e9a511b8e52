import jax
import jax.numpy as jnp

vector, matrix = jnp.ones(5), jnp.ones((2, 5))


def summarize(x):
    if x.ndim == 1:  # a Python bool: shapes are known while tracing
        return jnp.max(x)
    return jnp.max(x, axis=1)


print(jax.make_jaxpr(summarize)(vector))
print(jax.make_jaxpr(summarize)(matrix))
