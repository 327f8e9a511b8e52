# Mesh, acts and flipped come from the blocks above
import jax
from jax.sharding import PartitionSpec as P


def add_aligned(a, b):
    return a + jax.sharding.reshard(b, P("x", "y"))


with jax.set_mesh(mesh):
    print(jax.make_jaxpr(add_aligned)(acts, flipped))
