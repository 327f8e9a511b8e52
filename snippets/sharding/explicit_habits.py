# grid and xs come from the blocks above
import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

with jax.set_mesh(grid):
    try:
        jax.jit(lambda v: jax.lax.with_sharding_constraint(v * 2, P(None)))(
            xs
        )
    except AssertionError as err:
        print("with_sharding_constraint:", str(err).split(". ")[0] + ".")
    resharded = jax.jit(lambda v: jax.reshard(v * 2, P(None)))(xs)
    print("reshard instead:", jax.typeof(resharded))

    # one dimension, two axes
    both = jax.device_put(jnp.arange(16.0), P(("data", "model")))
    on_5 = next(s.data for s in both.addressable_shards if s.device.id == 5)
    print(
        "P(('data', 'model')):", jax.typeof(both), "| device 5 holds", on_5
    )
