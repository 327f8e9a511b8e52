# grid, place, feats and weights come from the blocks above
import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

with jax.set_mesh(grid):
    # the product left unreduced: its true value is the sum of the copies
    unreduced = P("data", None, unreduced={"model"})
    partial = jnp.matmul(feats, weights, out_sharding=unreduced)
    print("partial + partial:", jax.typeof(partial + partial))
    print("partial.sum():", jax.typeof(partial.sum()))
    uses = {
        "partial + 1.0": lambda: partial + 1.0,
        "sin(partial)": lambda: jnp.sin(partial),
        "jnp.mean(partial)": lambda: jnp.mean(partial),
        "partial @ w": lambda: partial @ place((10, 4), P(None, None)),
    }
    for name, use in uses.items():
        try:
            use()
        except Exception as error:  # ShardingTypeError has no public name
            print(
                f"{name}: {type(error).__name__}: "
                f"{str(error).splitlines()[0]}"
            )
    # reshard sums the copies: an ordinary array again
    summed = jax.reshard(partial, P("data", None))
    print(
        "reshard(partial, P('data', None)) + 1.0:", jax.typeof(summed + 1.0)
    )
