import jax
import jax.numpy as jnp
from jax import lax

# add_half comes from the block above
body_traces = []


def add_half_logged(i, total):
    result = add_half(i, total)
    # carry in -> out
    body_traces.append(f"{jax.typeof(total)} -> {jax.typeof(result)}")
    return result


weak = lax.fori_loop(0, 3, add_half_logged, 0)  # a Python int: weakly typed
print("start 0:      ", weak, jax.typeof(weak))
print("body traced as:", body_traces)
strong = lax.fori_loop(0, 3, add_half, jnp.float32(0))
print("start float32:", strong, jax.typeof(strong))
