# grid, place, feats, weights and collectives come from the blocks above
import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

from bookexec.facts import record  # hidden

rows = place((6, 12), P("data", None))  # rows split, every row whole
# every device holds all of the weights
shared = place((12, 10), P(None, None))
with jax.set_mesh(grid):
    print(
        "rows @ shared:",
        jax.typeof(rows @ shared),
        collectives(jnp.matmul, rows, shared),
    )
    # only weights splits the contracted dimension: no out_sharding needed
    print(
        "rows @ weights:",
        jax.typeof(rows @ weights),
        collectives(jnp.matmul, rows, weights),
    )
    print("feats.sum(axis=1):", collectives(lambda x: x.sum(axis=1), feats))
    # neither splits the contracted dimension, but both free ones are on
    # data: refused
    cols = place((12, 8), P(None, "data"))
    try:
        rows @ cols
    except Exception as err:  # ShardingTypeError has no public name
        print("rows @ cols:", type(err).__name__, str(err).splitlines()[0])
    fixed = jnp.matmul(rows, cols, out_sharding=P("data", None))
    print("rows @ cols, out_sharding=P('data', None):", jax.typeof(fixed))
    # hidden: begin
    record(
        "local_collectives", in_words(collectives(jnp.matmul, rows, shared))
    )
    record("one_side_type", str(jax.typeof(rows @ weights)))
    record(
        "one_side_collectives",
        in_words(collectives(jnp.matmul, rows, weights)),
    )
    record(
        "row_sum_collectives",
        in_words(collectives(lambda x: x.sum(axis=1), feats)),
    )
    record("fixed_type", str(jax.typeof(fixed)))
    # hidden: end
