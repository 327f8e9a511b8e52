# Hinted (an Auto mesh) comes from the blocks above
import jax
import jax.monitoring
import jax.numpy as jnp
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P

from bookexec.facts import record  # hidden

traces = 0
events = []


def listen(name, seconds, **kwargs):
    events.append(name)


# the event name is JAX's internal one, not a documented API
def compilations():
    return events.count("/jax/core/compile/backend_compile_duration")


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
jax.monitoring.register_event_duration_secs_listener(listen)
try:
    for where, x in arguments.items():
        traced, compiled = traces, compilations()
        double(x)
        new_traces, new_compiles = traces - traced, compilations() - compiled
        print(
            f"{where:30} {jax.typeof(x)}  traced: {new_traces}  compiled: "
            f"{new_compiles}"
        )
finally:
    jax.monitoring.unregister_event_duration_listener(listen)
print("traces:", traces, " compilations:", compilations())
record("arguments", len(arguments))  # hidden
record("traces", traces)  # hidden
record("compiles", compilations())  # hidden
