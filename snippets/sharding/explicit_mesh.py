import jax
import jax.numpy as jnp
from jax.sharding import AxisType, NamedSharding
from jax.sharding import PartitionSpec as P

from bookexec.facts import record  # hidden

grid = jax.make_mesh(
    (2, 4), ("data", "model"), axis_types=(AxisType.Explicit,) * 2
)
print(grid)


def place(shape, spec):
    return jax.device_put(jnp.ones(shape), NamedSharding(grid, spec))


feats = place((6, 12), P("data", "model"))  # 6 examples, 12 features
kernel = place((12, 10), P("model", "data"))  # 12 features in, 10 out
print("feats: ", jax.typeof(feats))
record("feats_type", str(jax.typeof(feats)))  # hidden
print("kernel:", jax.typeof(kernel))
record("kernel_type", str(jax.typeof(kernel)))  # hidden
print(
    "block of feats held by device 0: ",
    feats.addressable_shards[0].data.shape,
)
print(
    "block of kernel held by device 0:",
    kernel.addressable_shards[0].data.shape,
)
