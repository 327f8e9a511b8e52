# Feats comes from the block above
import jax

from bookexec.facts import record  # hidden

shards = sorted(feats.addressable_shards, key=lambda shard: shard.device.id)
for shard in shards:
    rows, cols = shard.index  # one slice per dimension: this device's part of the whole
    print(
        f"device {shard.device.id}: rows {rows.start}:{rows.stop}, "
        f"columns {cols.start}:{cols.stop}, block {shard.data.shape}"
    )
record("n_shards", len(shards))  # hidden
try:
    jax.debug.visualize_array_sharding(feats)  # draws the same table as a picture
except ValueError as err:
    print(err)
