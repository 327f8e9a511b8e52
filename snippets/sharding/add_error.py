# Mesh and acts come from the blocks above
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P

flipped = jax.device_put(jnp.ones((8, 16)), NamedSharding(mesh, P("y", "x")))
print("acts:   ", jax.typeof(acts))
print("flipped:", jax.typeof(flipped))
jax.make_jaxpr(lambda a, b: a + b)(acts, flipped)
