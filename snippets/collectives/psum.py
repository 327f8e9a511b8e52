# ring, xs and P come from the block above
import jax


def local_then_global(block):
    partial = block.sum()  # this device's two elements
    return jax.lax.psum(partial, "i")  # every device gets the sum of all eight partials


total = jax.shard_map(local_then_global, mesh=ring, in_specs=P("i"), out_specs=P())
print(jax.make_jaxpr(total)(xs))
print(total(xs), "=", xs.sum())


def mean_and_max(block):
    return jax.lax.pmean(block.mean(), "i"), jax.lax.pmax(block.max(), "i")


both = jax.shard_map(mean_and_max, mesh=ring, in_specs=P("i"), out_specs=(P(), P()))
inner = jax.make_jaxpr(both)(xs).eqns[0].params["jaxpr"]
print("pmean and pmax bind:", [e.primitive.name for e in inner.eqns])
print("mean of all elements:", both(xs)[0], " largest element:", both(xs)[1])
