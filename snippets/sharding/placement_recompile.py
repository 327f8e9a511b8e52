# hinted (an Auto mesh) comes from the blocks above
import logging

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P

from bookexec.facts import record  # hidden


class Messages(logging.Handler):
    """Keeps what JAX logs, to read it back below."""

    def __init__(self):
        super().__init__()
        self.lines = []

    def emit(self, entry):
        self.lines.extend(entry.getMessage().splitlines())


messages = Messages()
logging.getLogger("jax").addHandler(messages)
# one message per compilation, and one saying why each cache miss missed
jax.config.update("jax_log_compiles", True)
jax.config.update("jax_explain_cache_misses", True)
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
for where, x in arguments.items():
    seen, traced = len(messages.lines), traces
    double(x)
    new = messages.lines[seen:]
    compiled = sum(line.startswith("Compiling ") for line in new)
    compiles += compiled
    print(
        f"{where:30} {jax.typeof(x)}  traced: {traces - traced}  "
        f"compiled: {compiled}"
    )
    for line in new:
        if line.strip().startswith("* "):  # why the trace was redone
            print("   ", line.strip())
jax.config.update("jax_log_compiles", False)
jax.config.update("jax_explain_cache_misses", False)
logging.getLogger("jax").removeHandler(messages)
print("traces:", traces, " compilations:", compiles)
record("arguments", spelled(len(arguments)))  # hidden
record("traces", spelled(traces))  # hidden
record("compiles", spelled(compiles))  # hidden
