# grid, feats and P come from the blocks above
import jax
from jax.sharding import get_abstract_mesh


def which_mesh(x):
    mesh = get_abstract_mesh()
    print(f"  {mesh.axis_names} {mesh.axis_types}")
    return x


print("outside any mesh:", get_abstract_mesh())
jax.jit(which_mesh)(feats)
with jax.set_mesh(grid):
    print("inside jax.set_mesh(grid):")
    which_mesh(feats)
    jax.jit(which_mesh)(feats)
    jax.shard_map(which_mesh, out_specs=P("data", "model"))(feats)
    print(
        "the same mesh, without its devices:",
        get_abstract_mesh() == grid.abstract_mesh,
    )
