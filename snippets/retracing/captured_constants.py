import warnings

import jax
import jax.numpy as jnp
import numpy as np

from bookexec.facts import record  # hidden

# 1 MB of NumPy data, closed over below
table = np.ones((1000, 250), np.float32)


def project(x):
    # table is not an argument: it becomes a constant of the program
    return x @ table


before = jax.config.jax_captured_constants_warn_bytes
print("default threshold:", before, "bytes")
# lower it to see the warning
jax.config.update("jax_captured_constants_warn_bytes", 500_000)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    jax.jit(project)(jnp.ones(1000))
    # the same product, table an argument
    jax.jit(lambda x, t: x @ t)(jnp.ones(1000), table)
jax.config.update("jax_captured_constants_warn_bytes", before)
for warning in caught:
    print(f"{warning.category.__name__}: {warning.message}")
record("n_warnings", len(caught))  # hidden
record("default", before)  # hidden
