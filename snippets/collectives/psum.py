# ring, xs and P come from the block above
from functools import partial

import jax


def local_then_global(block):
    local_sum = block.sum()  # this device's two elements
    # every device gets the sum of all eight local sums
    return jax.lax.psum(local_sum, "i")


total = jax.shard_map(
    local_then_global, mesh=ring, in_specs=P("i"), out_specs=P()
)
print(jax.make_jaxpr(total)(xs))
print(total(xs), "=", xs.sum())


def mean_max_min(block):
    return (
        jax.lax.pmean(block.mean(), "i"),
        jax.lax.pmax(block.max(), "i"),
        jax.lax.pmin(block.min(), "i"),
    )


spread = jax.shard_map(
    mean_max_min, mesh=ring, in_specs=P("i"), out_specs=(P(), P(), P())
)
mean, largest, smallest = spread(xs)
print(
    "mean of all elements:",
    mean,
    " largest:",
    largest,
    " smallest:",
    smallest,
)
for op in (jax.lax.pmean, jax.lax.pmax, jax.lax.pmin):
    alone = jax.shard_map(
        partial(op, axis_name="i"), mesh=ring, in_specs=P("i"), out_specs=P()
    )
    inner = jax.make_jaxpr(alone)(xs).eqns[0].params["jaxpr"]
    print(f"{op.__name__} binds:", [e.primitive.name for e in inner.eqns])
