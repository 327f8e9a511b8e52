import jax
import jax.numpy as jnp

from bookexec.facts import record

traces = 0


@jax.jit
def shift(x):
    global traces
    traces += 1
    return x - 1


calls = [
    ("first", jnp.zeros((2, 3))),  # float32[2,3]
    ("same_type", jnp.ones((2, 3))),  # float32[2,3], other values
    ("new_shape", jnp.zeros((3, 2))),  # float32[3,2]: six elements again, another shape
    ("new_dtype", jnp.zeros((3, 2), jnp.float16)),  # float16[3,2]
    ("old_type", jnp.eye(2, 3)),  # float32[2,3] again
]
for label, arg in calls:
    shift(arg)
    seen = record(f"after_{label}", traces)
    print(f"{label:<10} {jax.typeof(arg)!s:<13} traces so far: {seen}")
