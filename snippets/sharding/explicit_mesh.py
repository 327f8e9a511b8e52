import jax
import jax.numpy as jnp
from jax.sharding import AxisType, NamedSharding
from jax.sharding import PartitionSpec as P

from bookexec.facts import record

mesh = jax.make_mesh((2, 4), ("x", "y"), axis_types=(AxisType.Explicit, AxisType.Explicit))
print(mesh)

acts = jax.device_put(jnp.ones((8, 16)), NamedSharding(mesh, P("x", "y")))
weights = jax.device_put(jnp.ones((16, 4)), NamedSharding(mesh, P("y", None)))
print("acts:   ", record("acts_type", str(jax.typeof(acts))))
print("weights:", record("weights_type", str(jax.typeof(weights))))
print("one shard of acts:   ", acts.addressable_shards[0].data.shape)
print("one shard of weights:", weights.addressable_shards[0].data.shape)
