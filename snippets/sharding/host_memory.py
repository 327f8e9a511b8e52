# Mesh and acts come from the blocks above
import jax
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P

print("memories of device 0:", jax.devices()[0].addressable_memories())

on_host = jax.device_put(acts, jax.memory.Space.Host)
print("Space.Host:   ", jax.typeof(on_host), "memory_kind =", on_host.sharding.memory_kind)

pinned = jax.device_put(acts, NamedSharding(mesh, P("x", "y"), memory_kind="pinned_host"))
unpinned = jax.device_put(acts, NamedSharding(mesh, P("x", "y"), memory_kind="unpinned_host"))
print("pinned_host:  ", jax.typeof(pinned))
print("unpinned_host:", jax.typeof(unpinned))

print(jax.make_jaxpr(lambda v: v * 2)(on_host))
