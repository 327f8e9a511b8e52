# Grid, tall and collectives come from the blocks above
import jax
from jax.sharding import PartitionSpec as Spec

from bookexec.facts import record


def scattered_row_sums(block):
    partial = block.sum(axis=1)  # this device's partial sums of its 4 rows
    return jax.lax.psum_scatter(partial, "model", tiled=True)  # keep the total of 1 row


row_sums = jax.shard_map(
    scattered_row_sums, in_specs=Spec("data", "model"), out_specs=Spec(("data", "model"))
)
with jax.set_mesh(grid):
    print(jax.make_jaxpr(row_sums)(tall))
    sums = row_sums(tall)
    talk = collectives(row_sums, tall)
print(jax.typeof(sums), sums)
print(talk)
record("scatter_collectives", sum(talk.values()))
