# grid, the Explicit mesh, comes from the blocks above
import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

with jax.set_mesh(grid):
    # f32[8@data]: four entries a device
    xs = jax.device_put(jnp.arange(8.0), P("data"))
    for name, read in [("xs[3]", lambda: xs[3]), ("xs[:4]", lambda: xs[:4])]:
        try:
            read()
        except Exception as err:  # ShardingTypeError has no public name
            print(f"{name}: {type(err).__name__}:")
            print(" ", str(err).splitlines()[0])
    one = xs.at[3].get(out_sharding=P())  # say where the result goes
    half = xs.at[:4].get(out_sharding=P("data"))
    print("xs.at[3].get:", jax.typeof(one), one)
    print("xs.at[:4].get:", jax.typeof(half), half)

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
