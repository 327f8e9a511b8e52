import jax
import jax.numpy as jnp
from jax.sharding import AxisType, NamedSharding
from jax.sharding import PartitionSpec as P

from bookexec.facts import record

auto_mesh = jax.make_mesh((2, 4), ("x", "y"), axis_types=(AxisType.Auto, AxisType.Auto))
quiet = jax.device_put(jnp.ones((8, 16)), NamedSharding(auto_mesh, P("x", "y")))
print("type:    ", record("auto_type", str(jax.typeof(quiet))))
print("sharding:", quiet.sharding.spec)

default_mesh = jax.make_mesh((2, 4), ("x", "y"))
print("make_mesh without axis_types:", record("default_types", str(default_mesh.axis_types)))
