import jax
import jax.numpy as jnp
from jax.sharding import AxisType, NamedSharding
from jax.sharding import PartitionSpec as Spec

from bookexec.facts import record

hinted = jax.make_mesh((2, 4), ("data", "model"), axis_types=(AxisType.Auto,) * 2)
quiet = jax.device_put(jnp.ones((6, 12)), NamedSharding(hinted, Spec("data", "model")))
print("type:     ", record("auto_type", str(jax.typeof(quiet))))
print("placement:", quiet.sharding.spec)
