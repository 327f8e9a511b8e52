import jax
import jax.numpy as jnp
from jax.sharding import AxisType, NamedSharding
from jax.sharding import PartitionSpec as P

from bookexec.facts import record  # hidden

hinted = jax.make_mesh(
    (2, 4), ("data", "model"), axis_types=(AxisType.Auto,) * 2
)
quiet = jax.device_put(
    jnp.ones((6, 12)), NamedSharding(hinted, P("data", "model"))
)
print("type:     ", jax.typeof(quiet))
record("auto_type", str(jax.typeof(quiet)))  # hidden
print("placement:", quiet.sharding.spec)
