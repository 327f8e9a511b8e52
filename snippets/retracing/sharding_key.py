import jax

jax.config.update("jax_num_cpu_devices", 8)  # eight CPU devices, before any array is made

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax.sharding import AxisType, Mesh, NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

from bookexec.facts import record  # noqa: E402

grid = np.array(jax.devices()).reshape(2, 4)
specs = [P("a", "b"), P(None, "b"), P()]  # three placements of the same f32[8,8]


def place_three_ways(kind):
    mesh = Mesh(grid, ("a", "b"), axis_types=(kind, kind))
    traces = []

    @jax.jit
    def double(x):
        traces.append(jax.typeof(x))  # once per trace
        return 2 * x

    for spec in specs:
        double(jax.device_put(jnp.ones((8, 8)), NamedSharding(mesh, spec)))
    return traces, double._cache_size()  # the traces, and the compiled programs kept


for kind in (AxisType.Auto, AxisType.Explicit):
    traces, programs = place_three_ways(kind)
    name = kind.name.lower()
    record(f"{name}_traces", len(traces))
    record(f"{name}_programs", programs)
    print(
        f"{kind.name:8} axes: {len(specs)} placements, {len(traces)} trace(s), {programs} programs"
    )
    for t in traces:
        print("   traced with", t)
