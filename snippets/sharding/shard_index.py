# feats comes from the block above

from bookexec.facts import record  # hidden

shards = sorted(feats.addressable_shards, key=lambda shard: shard.device.id)
for shard in shards:
    # one slice per dimension: this device's part of the whole
    rows, cols = shard.index
    print(
        f"device {shard.device.id}: rows {rows.start}:{rows.stop}, "
        f"columns {cols.start}:{cols.stop}, block {shard.data.shape}"
    )
record("n_shards", spelled(len(shards)))  # hidden
