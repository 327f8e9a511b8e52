import warnings

import jax.numpy as jnp

from bookexec.facts import record

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    zeros = jnp.zeros(3, dtype=jnp.float64)  # x64 is off
print("dtype:", record("dtype", str(zeros.dtype)))
for warning in caught:
    print(f"{record('category', warning.category.__name__)}: {warning.message}")
