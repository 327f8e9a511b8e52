# ring, P and total come from the blocks above
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding

p, N = 8, 16  # eight devices, sixteen numbers on each
ys = jax.device_put(
    jnp.arange(p * N, dtype=jnp.float32), NamedSharding(ring, P("i"))
)


def two_halves(block):
    # the sum of one eighth: 2 numbers
    mine = jax.lax.psum_scatter(block, "i", tiled=True)
    # every eighth, everywhere: 16 numbers
    return jax.lax.all_gather(mine, "i", tiled=True)


def one_psum(block):
    return jax.lax.psum(block, "i")


halves = jax.shard_map(
    two_halves, mesh=ring, in_specs=P("i"), out_specs=P("i")
)
whole = jax.shard_map(one_psum, mesh=ring, in_specs=P("i"), out_specs=P())
print(jax.make_jaxpr(halves)(ys).eqns[0].params["jaxpr"])
rows = np.asarray(halves(ys)).reshape(p, N)  # row d: what device d holds
print(
    "every device holds the psum:",
    bool((rows == np.asarray(whole(ys))).all()),
)
