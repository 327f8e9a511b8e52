import warnings

import jax.numpy as jnp

from bookexec.facts import record  # hidden

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    zeros = jnp.zeros(3, dtype=jnp.float64)  # x64 is off
print("dtype:", zeros.dtype)
for warning in caught:
    print(f"{warning.category.__name__}: {warning.message}")
record("dtype", str(zeros.dtype))  # hidden
record("category", caught[0].category.__name__)  # hidden
