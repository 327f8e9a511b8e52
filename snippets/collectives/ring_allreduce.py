# ring, xs, P, shift and total come from the blocks above
import jax


def ring_sum(block):
    local_sum = block.sum(keepdims=True)
    acc, passing = local_sum, local_sum
    # n - 1 hops: every local sum visits every device
    for _ in range(jax.lax.axis_size("i") - 1):
        passing = jax.lax.ppermute(passing, "i", perm=shift)
        acc = acc + passing
    return acc


by_ring = jax.shard_map(
    ring_sum, mesh=ring, in_specs=P("i"), out_specs=P("i")
)
print("ring:", by_ring(xs), " psum:", total(xs))
eqns = jax.make_jaxpr(by_ring)(xs).jaxpr.eqns[0].params["jaxpr"].eqns
print(
    "per-device equations:",
    sorted({e.primitive.name for e in eqns}),
    len(eqns),
)
