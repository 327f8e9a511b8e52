# place and feats come from the blocks above
import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

from bookexec.facts import record  # hidden

traces = 0


@jax.jit
def double(x):
    global traces
    traces += 1  # Python: runs only while tracing
    return 2 * x


arguments = [
    feats,  # f32[6@data,12@model]
    place((6, 12), P("data", "model")),  # same type: reuses the program
    # same shape and dtype, another placement
    place((6, 12), P(None, "model")),
    jnp.ones((6, 12)),  # on one device
]
for x in arguments:
    double(x)
print("calls:", len(arguments), " traces:", traces)
record("calls", spelled(len(arguments)))  # hidden
record("traces", spelled(traces))  # hidden
