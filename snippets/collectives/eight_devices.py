import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P

# Before anything touches a device: the CPU backend reads this once, when it
# starts.
jax.config.update("jax_num_cpu_devices", 8)

# one axis, eight devices, Explicit by default
ring = jax.make_mesh((8,), ("i",))
print(ring.shape, ring.axis_types)
xs = jax.device_put(jnp.arange(16.0), NamedSharding(ring, P("i")))
print(jax.typeof(xs), "per device:", xs.addressable_shards[0].data.shape)
