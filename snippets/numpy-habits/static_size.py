import jax
import jax.numpy as jnp

x = jnp.array([3.0, -1.0, 4.0, -1.5, 5.0])


@jax.jit
def fixed_sizes(x):
    (where_positive,) = jnp.nonzero(x > 0, size=4, fill_value=x.size)
    distinct_signs = jnp.unique(jnp.sign(x), size=3, fill_value=jnp.nan)
    # three arguments: same shape as x
    positives_or_zero = jnp.where(x > 0, x, 0.0)
    return where_positive, distinct_signs, positives_or_zero


results = fixed_sizes(x)
for name, value in zip(("nonzero", "unique", "where"), results, strict=True):
    print(f"{name:8} {value.dtype}{list(value.shape)} {value}")
