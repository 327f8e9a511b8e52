# ring, xs and P come from the block above
import jax


def local_then_global(block):
    partial = block.sum()  # this device's two elements
    # every device gets the sum of all eight partials
    return jax.lax.psum(partial, "i")


total = jax.shard_map(
    local_then_global, mesh=ring, in_specs=P("i"), out_specs=P()
)
print(jax.make_jaxpr(total)(xs))
print(total(xs), "=", xs.sum())


def mean_max_min(block):
    mean = jax.lax.pmean(block.mean(), "i")
    return (
        mean,
        jax.lax.pmax(block.max(), "i"),
        jax.lax.pmin(block.min(), "i"),
    )


spread = jax.shard_map(
    mean_max_min, mesh=ring, in_specs=P("i"), out_specs=(P(), P(), P())
)
inner = jax.make_jaxpr(spread)(xs).eqns[0].params["jaxpr"]
print("pmean, pmax and pmin bind:", [e.primitive.name for e in inner.eqns])
mean, largest, smallest = spread(xs)
print(
    "mean of all elements:",
    mean,
    " largest:",
    largest,
    " smallest:",
    smallest,
)
