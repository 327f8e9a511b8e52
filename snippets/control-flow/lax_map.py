import jax
import jax.numpy as jnp
from jax import lax


def norm(row):
    return jnp.sqrt(jnp.sum(row * row))


rows = jnp.arange(14.0).reshape(7, 2)
print("lax.map:", lax.map(norm, rows))
print("vmap:   ", jax.vmap(norm)(rows))
print(jax.make_jaxpr(lambda r: lax.map(norm, r))(rows))
print(jax.make_jaxpr(lambda r: lax.map(norm, r, batch_size=3))(rows))
