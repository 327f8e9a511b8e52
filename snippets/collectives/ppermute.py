# ring, xs and P come from the first block
import jax

n = ring.shape["i"]  # devices along the ring
# device d sends its block to device d + 1
shift = [(d, (d + 1) % n) for d in range(n)]


def rotate(block):
    return jax.lax.ppermute(block, "i", perm=shift)


rotated = jax.shard_map(rotate, mesh=ring, in_specs=P("i"), out_specs=P("i"))
print(jax.make_jaxpr(rotated)(xs))
print(rotated(xs))
