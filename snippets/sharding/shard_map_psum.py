# grid, feats and collectives come from the blocks above
import jax
from jax.sharding import PartitionSpec as P

from bookexec.facts import record  # hidden


def local_row_sums(block):
    # the sum over this device's 3 of the 12 columns
    partial = block.sum(axis=1)
    # add the 4 partial sums across model
    return jax.lax.psum(partial, "model")


row_sums = jax.shard_map(
    local_row_sums, in_specs=P("data", "model"), out_specs=P("data")
)
with jax.set_mesh(grid):
    print(jax.make_jaxpr(row_sums)(feats))
    total = row_sums(feats)
    talk = collectives(row_sums, feats)
print(jax.typeof(total), total)
print("collectives:", talk)
record("psum_collectives", in_words(talk))  # hidden
