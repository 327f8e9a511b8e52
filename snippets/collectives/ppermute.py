# ring, xs and P come from the first block
import jax

shift = [(d, (d + 1) % 8) for d in range(8)]  # device d sends its block to device d + 1


def rotate(block):
    return jax.lax.ppermute(block, "i", perm=shift)


rotated = jax.shard_map(rotate, mesh=ring, in_specs=P("i"), out_specs=P("i"))
print(jax.make_jaxpr(rotated)(xs))
print(rotated(xs))
