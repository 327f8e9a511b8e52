# grid, the Explicit mesh, and collectives come from the blocks above
import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

with jax.set_mesh(grid):
    # f32[8@data]: four entries a device
    xs = jax.device_put(jnp.arange(8.0), P("data"))
    # Indexing an array outside jit is a gather, which will not pick.
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

    # Slices pick a placement themselves, and so does a static index
    # under jit, which becomes a slice.
    picks = {
        "lax.slice(v, (0,), (4,))": lambda v: jax.lax.slice(v, (0,), (4,)),
        "lax.dynamic_slice(v, (2,), (4,))": lambda v: jax.lax.dynamic_slice(
            v, (2,), (4,)
        ),
        "jit: v[:4]": lambda v: v[:4],
        "jit: v[3]": lambda v: v[3],
    }
    for name, pick in picks.items():
        picked = jax.jit(pick)(xs)
        talk = collectives(pick, xs) or "no collectives"
        print(f"{name}:", jax.typeof(picked), talk)
    refused = {
        "lax.slice(v, (0,), (3,))": lambda v: jax.lax.slice(v, (0,), (3,)),
        "jit: v[jnp.array([1, 2])]": lambda v: v[jnp.array([1, 2])],
    }
    for name, pick in refused.items():
        try:
            jax.jit(pick)(xs)
        except Exception as err:  # ShardingTypeError has no public name
            print(f"{name}: {type(err).__name__}:")
            print(" ", str(err).split(". Got")[0])
