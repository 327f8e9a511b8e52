import jax
import jax.numpy as jnp
import numpy as np

from bookexec.facts import record  # hidden

traced = []  # the body appends here only while JAX traces it


@jax.jit
def affine(x):
    t = jax.typeof(x)  # the type the tracer stands for
    traced.append(f"{t.dtype}{list(t.shape)} weak={t.weak_type}")
    return 3 * x + 1


calls = [
    jnp.linspace(0.0, 1.0, 5),  # float32[5]
    jnp.zeros(5),  # same shape and dtype, other values
    jnp.zeros(7),  # a new shape
    jnp.arange(7),  # a new dtype: int32[7]
    np.zeros(5, dtype=np.float32),  # a NumPy array with the first signature
    2.0,  # a Python float: weakly typed float32 scalar
    jnp.float32(2.0),  # a float32 scalar, strongly typed
    5.0,  # another Python float
]
for arg in calls:
    affine(arg)

for line in traced:
    print("traced for", line)
record("calls", len(calls))  # hidden
record("traces", len(traced))  # hidden
print(f"{len(calls)} calls, {len(traced)} traces")
