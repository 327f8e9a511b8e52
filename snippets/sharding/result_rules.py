# grid, place and feats come from the blocks above
import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

from bookexec.facts import record  # hidden

# rows whole, columns split like feats'
cols = place((6, 12), P(None, "model"))
# one entry per feature, split like feats' columns
scale = place((12,), P("model"))
other = place((6, 12), P(None, "data"))  # columns split over another axis

cases = {
    "sin(feats)": lambda: jnp.sin(feats),
    "feats + cols": lambda: feats + cols,
    "feats * scale": lambda: feats * scale,
    "feats.sum(axis=0)": lambda: feats.sum(axis=0),
    "feats.sum(axis=1)": lambda: feats.sum(axis=1),
    "feats.sum()": lambda: feats.sum(),
    "feats + other": lambda: feats + other,
}
with jax.set_mesh(grid):
    for name, make in cases.items():
        try:
            print(f"{name:18} {jax.typeof(make())}")
        except Exception as error:  # ShardingTypeError has no public name
            print(
                f"{name:18} {type(error).__name__}: "
                f"{str(error).splitlines()[0]}"
            )
    record("mixed_type", str(jax.typeof(feats + cols)))  # hidden
    record("row_sum_type", str(jax.typeof(feats.sum(axis=1))))  # hidden
