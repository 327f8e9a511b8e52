# ring, xs and P come from the block above
import jax


def local_then_global(block):
    partial = block.sum()  # this device's two elements
    return jax.lax.psum(partial, "i")  # every device gets the sum of all eight partials


total = jax.shard_map(local_then_global, mesh=ring, in_specs=P("i"), out_specs=P())
print(jax.make_jaxpr(total)(xs))
print(total(xs), "=", xs.sum())
