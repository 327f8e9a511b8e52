# hinted (an Auto mesh) comes from the blocks above
import logging
import logging.handlers

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P

from bookexec.facts import record  # hidden

# keep what JAX logs, to read it back below (nothing reaches stderr)
log = logging.handlers.BufferingHandler(capacity=10_000)
logging.getLogger("jax").addHandler(log)
traces = 0


@jax.jit
def double(x):
    global traces
    traces += 1  # Python: runs only while tracing
    return 2 * x


ones = jnp.ones((6, 12))
arguments = {
    "device 0": ones,
    "device 1": jax.device_put(ones, jax.devices()[1]),
}
for spec in [P("data", "model"), P(None, "model"), P()]:
    arguments[f"hinted, {spec}"] = jax.device_put(
        ones, NamedSharding(hinted, spec)
    )
compiles = 0
# log each compilation, and why each cache miss missed
with jax.log_compiles(), jax.explain_cache_misses():
    for where, x in arguments.items():
        seen, traced = len(log.buffer), traces
        double(x)
        new = [r.getMessage() for r in log.buffer[seen:]]
        compiled = sum(m.startswith("Compiling ") for m in new)
        compiles += compiled
        print(
            f"{where:30} {jax.typeof(x)}  traced: {traces - traced}  "
            f"compiled: {compiled}"
        )
        for line in "\n".join(new).splitlines():
            if line.strip().startswith("* "):  # why the trace was redone
                print("   ", line.strip())
logging.getLogger("jax").removeHandler(log)
print("traces:", traces, " compilations:", compiles)
record("arguments", spelled(len(arguments)))  # hidden
record("traces", spelled(traces))  # hidden
record("compiles", spelled(compiles))  # hidden
