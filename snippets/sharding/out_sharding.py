# grid, feats and kernel come from the blocks above
import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

ROWS_OVER_DATA = P("data", None)


def dense(x, w, where=ROWS_OVER_DATA):
    return jnp.matmul(x, w, out_sharding=where)


with jax.set_mesh(grid):
    traced = jax.make_jaxpr(dense)(feats, kernel)
    dense_out = jax.jit(dense)(feats, kernel)
    other = jax.make_jaxpr(lambda x, w: dense(x, w, P(None, "data")))(
        feats, kernel
    )

print(traced)
eqn = traced.jaxpr.eqns[0]
print(eqn.primitive, "params:")
for name, value in eqn.params.items():
    print(f"    {name} = {value!r}")
print("jit result:         ", jax.typeof(dense_out))
print("asking (None, data):", other.out_avals[0])
