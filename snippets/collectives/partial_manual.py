# P and collectives come from the blocks above; the first asked for eight
# devices
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding

grid = jax.make_mesh((2, 4), ("data", "model"))  # two axes, both Explicit
batch = jax.device_put(
    jnp.ones((8, 12)), NamedSharding(grid, P("data", "model"))
)


# manual over data only: model is still JAX's to place
def per_data_shard(block):
    print("inside:", jax.typeof(block))
    return jax.lax.psum(block, "data")


with jax.set_mesh(grid):
    summed = jax.shard_map(
        per_data_shard,
        in_specs=P("data"),
        out_specs=P(),
        axis_names={"data"},
    )
    print("outside:", jax.typeof(summed(batch)))
    # sums over the model-split columns, with no collective written
    row_sums = jax.shard_map(
        lambda block: block.sum(axis=1),
        in_specs=P("data"),
        out_specs=P("data"),
        axis_names={"data"},
    )
    print("row sums:", collectives(row_sums, batch))
    try:
        jax.shard_map(
            per_data_shard,
            in_specs=P("data", "model"),
            out_specs=P(),
            axis_names={"data"},
        )(batch)
    except ValueError as err:
        print(
            "ValueError:",
            " ".join(
                line.strip() for line in str(err).splitlines()[:3] if line
            ),
        )
