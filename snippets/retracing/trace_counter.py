import jax
import jax.numpy as jnp
import numpy as np

from bookexec.facts import record

traced = []  # the body appends here only while JAX traces it


@jax.jit
def affine(x):
    traced.append(f"{x.dtype}{list(x.shape)} weak={x.aval.weak_type}")
    return 3 * x + 1


calls = [
    jnp.ones(4),  # float32[4]
    jnp.zeros(4),  # same shape and dtype, other values
    jnp.ones(8),  # a new shape
    jnp.ones(8, dtype=jnp.int32),  # a new dtype
    np.ones(4, dtype=np.float32),  # a NumPy array with the first signature
    2.0,  # a Python float: weakly typed float32 scalar
    jnp.float32(2.0),  # a float32 scalar, strongly typed
    5.0,  # another Python float
]
for arg in calls:
    affine(arg)

for line in traced:
    print("traced for", line)
record("calls", len(calls))
record("traces", len(traced))
print(f"{len(calls)} calls, {len(traced)} traces")
