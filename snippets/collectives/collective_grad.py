# ring, xs and P come from the first block
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding


def weighted_total(w, block):  # w is the same on every device, block is not
    return jax.lax.psum(jnp.sum(w * block), "i")


loss = jax.shard_map(
    weighted_total, mesh=ring, in_specs=(P(), P("i")), out_specs=P()
)
w = jax.device_put(jnp.float32(2.0), NamedSharding(ring, P()))
grad_jaxpr = jax.make_jaxpr(jax.grad(loss))(w, xs)
# the shard_map of the backward pass
backward = grad_jaxpr.eqns[-1].params["jaxpr"]
print(backward)
print(
    "d loss / d w:", jax.jit(jax.grad(loss))(w, xs), "= sum of xs:", xs.sum()
)


def gathered_square(block):
    return jnp.sum(
        jax.lax.all_gather(block, "i", tiled=True) ** 2, keepdims=True
    )


g = jax.shard_map(
    gathered_square, mesh=ring, in_specs=P("i"), out_specs=P("i")
)
eqns = (
    jax.make_jaxpr(jax.grad(lambda x: g(x).sum()))(xs)
    .eqns[-1]
    .params["jaxpr"]
    .eqns
)
print("backward of all_gather:", [e.primitive.name for e in eqns])
