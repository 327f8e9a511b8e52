# grid comes from the blocks above
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P

from bookexec.facts import record  # hidden

with jax.set_mesh(grid):
    zeros = jnp.zeros((6, 12), out_sharding=P("data", None))
    noise = jax.random.normal(
        jax.random.key(0), (6, 12), out_sharding=P(None, "model")
    )
    print("zeros:", jax.typeof(zeros))
    print("noise:", jax.typeof(noise))
    print(
        jax.make_jaxpr(
            lambda: jnp.zeros((6, 12), out_sharding=P("data", None))
        )()
    )
print("block of noise on device 0:", noise.addressable_shards[0].data.shape)
unplaced = jax.random.normal(jax.random.key(0), (6, 12))
print("same numbers as unplaced:", bool((noise == unplaced).all()))
record("same_noise", str(bool((noise == unplaced).all())))  # hidden

# Outside jax.set_mesh, even a whole NamedSharding is not enough.
rows_on_grid = NamedSharding(grid, P("data", None))
outside = jnp.zeros((6, 12), out_sharding=rows_on_grid)
print("zeros outside set_mesh:", outside.sharding)
# device= takes a whole sharding, and needs no mesh set
placed = jnp.zeros((6, 12), device=rows_on_grid)
print("zeros with device=:", jax.typeof(placed))
try:
    jax.random.normal(jax.random.key(0), (6, 12), out_sharding=rows_on_grid)
except ValueError as err:
    print("normal outside set_mesh: ValueError:", str(err).split(". ")[0])
