import warnings

import jax
import jax.numpy as jnp


def add_row(table, row):
    return table + row  # the result is f32[2,3]: no output has the shape of `row`


table, row = jnp.ones((2, 3)), jnp.ones((1, 3))
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    jax.jit(add_row, donate_argnums=1)(table, row)  # donate `row`
for w in caught:
    print(w.category.__name__ + ":", w.message)
print("row deleted:", row.is_deleted())
print("row still readable:", row)
