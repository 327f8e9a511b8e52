# hinted (an Auto mesh) comes from the blocks above
import logging

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P

from bookexec.facts import record  # hidden

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
print("every argument:", {str(jax.typeof(x)) for x in arguments.values()})

messages = []  # what JAX logs, kept here instead of printed to stderr


class Keep(logging.Handler):
    def emit(self, record):
        messages.append(record.getMessage())


logging.getLogger("jax").addHandler(keep := Keep())
compiles = 0
with jax.log_compiles(), jax.explain_cache_misses():
    for where, x in arguments.items():
        messages.clear()
        traced = traces
        double(x)
        compiled = sum(m.startswith("Compiling ") for m in messages)
        compiles += compiled
        print(f"{where:26} traced: {traces - traced}  compiled: {compiled}")
        for line in "\n".join(messages).splitlines():
            if line.strip().startswith("* "):  # why the trace was redone
                print("   ", line.strip())
logging.getLogger("jax").removeHandler(keep)
print("traces:", traces, " compilations:", compiles)
record("arguments", spelled(len(arguments)))  # hidden
record("traces", spelled(traces))  # hidden
record("compiles", spelled(compiles))  # hidden
