import jax
import jax.numpy as jnp

from bookexec.facts import record

traces = 0


@jax.jit
def double(x):
    global traces
    traces += 1
    return x * 2


calls = [
    ("first", jnp.ones(4)),  # float32[4]
    ("same_type", jnp.arange(4.0)),  # float32[4], new values
    ("new_shape", jnp.ones(8)),  # float32[8]
    ("new_dtype", jnp.ones(8, dtype=jnp.int32)),  # int32[8]
    ("old_type", jnp.zeros(4)),  # float32[4] again
]
for label, arg in calls:
    double(arg)
    seen = record(f"after_{label}", traces)
    print(f"{label:<10} {jax.typeof(arg)!s:<10} traces so far: {seen}")
