# ring, P and ys come from the blocks above
import jax
import numpy as np


# 16 numbers: eight pieces of two, one piece for each device
def transpose_blocks(block):
    pieces = block.reshape(8, 2)
    return jax.lax.all_to_all(
        pieces, "i", split_axis=0, concat_axis=0, tiled=True
    )


swapped = jax.shard_map(
    transpose_blocks, mesh=ring, in_specs=P("i"), out_specs=P("i")
)
print(jax.make_jaxpr(swapped)(ys).eqns[0].params["jaxpr"])
before = np.asarray(ys).reshape(8, 8, 2)  # [device, piece, element]
after = np.asarray(swapped(ys)).reshape(8, 8, 2)
print(
    "device 3 now holds piece 3 of every device:",
    bool((after[3] == before[:, 3]).all()),
)
print(
    "piece j of device d is piece d of device j:",
    bool((after == before.swapaxes(0, 1)).all()),
)
