# grid, place and collectives come from the blocks above
import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

from bookexec.facts import record  # hidden

tall = place((8, 12), P("data", "model"))
print("tall:", jax.typeof(tall))
shapes = {
    "split_rows": (2, 4, 12),  # 8 rows as 2 by 4
    "split_cols": (8, 4, 3),  # 12 columns as 4 by 3
    "split_cols_other": (8, 3, 4),  # 12 columns as 3 by 4
    "merge": (96,),
    "regroup": (4, 24),
}
with jax.set_mesh(grid):
    for name, shape in shapes.items():

        def reshape(x, shape=shape):
            return jnp.reshape(x, shape)

        try:
            result_type = jax.typeof(reshape(tall))
        except Exception as err:  # ShardingTypeError has no public name
            print(f"{name:17} {type(err).__name__}: {err}")
            continue
        talk = collectives(reshape, tall)
        record(f"{name}_collectives", in_words(talk))  # hidden
        print(f"{name:17} {result_type!s:28} {talk or 'no communication'}")

    def split_whole(x):
        return jnp.reshape(x, (8, 3, 4), out_sharding=P("data", None, None))

    print(jax.make_jaxpr(split_whole)(tall))
    talk = collectives(split_whole, tall)
    print("with out_sharding:", talk)
    record("fixed_collectives", in_words(talk))  # hidden
