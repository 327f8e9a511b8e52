# grid (axes data and model), NamedSharding, P and collectives come from the
# blocks above
import jax
import jax.numpy as jnp

tiles = jax.device_put(
    jnp.arange(32.0).reshape(4, 8), NamedSharding(grid, P("data", "model"))
)


def three_sums(block):  # block: this device's 2 x 2 tile
    tile = block.sum(keepdims=True)  # shape (1, 1), one number per device
    # over the two devices of each model column
    down = jax.lax.psum(tile, "data")
    # over the four devices of each data row
    across = jax.lax.psum(tile, "model")
    # over all eight at once
    everywhere = jax.lax.psum(tile, ("data", "model"))
    return down, across, everywhere


sums = jax.shard_map(
    three_sums, mesh=grid, out_specs=(P(None, "model"), P("data"), P())
)
print(jax.make_jaxpr(sums)(tiles).eqns[0].params["jaxpr"])
down, across, everywhere = sums(tiles)
print(
    "per model column:",
    down,
    " per data row:",
    across.ravel(),
    " all:",
    everywhere,
)
print("total of tiles:", tiles.sum())
print("collectives:", collectives(sums, tiles))
