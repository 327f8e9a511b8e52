import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P

# Eight CPU devices, on any machine. Before anything touches a device: the
# backends read this once, when they start. With eight GPUs or TPU cores,
# leave out both lines and the same code runs on them.
jax.config.update("jax_platforms", "cpu")
jax.config.update("jax_num_cpu_devices", 8)

# one axis, eight devices, Explicit by default
ring = jax.make_mesh((8,), ("i",))
print(ring.shape, ring.axis_types)
xs = jax.device_put(jnp.arange(16.0), NamedSharding(ring, P("i")))
print(jax.typeof(xs), "per device:", xs.addressable_shards[0].data.shape)
