# Hinted (an Auto mesh) comes from the blocks above
import jax
import jax.monitoring
import jax.numpy as jnp
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as Spec

from bookexec.facts import record  # hidden

traces = 0
events = []


def listen(name, seconds, **kwargs):
    events.append(name)


@jax.jit
def double(x):
    global traces
    traces += 1  # Python: runs only while tracing
    return 2 * x


specs = [Spec("data", "model"), Spec(None, "model"), Spec()]
arguments = [jax.device_put(jnp.ones((6, 12)), NamedSharding(hinted, s)) for s in specs]
types = {str(jax.typeof(x)) for x in arguments}
jax.monitoring.register_event_duration_secs_listener(listen)
try:
    for x in arguments:
        double(x)
finally:
    jax.monitoring.unregister_event_duration_listener(listen)
compiles = events.count("/jax/core/compile/backend_compile_duration")
print("placements:", len(specs), " types:", sorted(types))
print("traces:", traces, " compilations:", compiles)
record("traces", traces)  # hidden
record("compiles", compiles)  # hidden
