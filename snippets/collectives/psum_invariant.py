# ring, xs and P come from the first block
import jax

from bookexec.facts import record  # hidden


# c comes in with P(): the same number on every device
def sum_a_constant(block, c):
    return jax.lax.psum(c, "i")


for check_vma in (True, False):
    summed = jax.shard_map(
        sum_a_constant,
        mesh=ring,
        in_specs=(P("i"), P()),
        out_specs=P(),
        check_vma=check_vma,
    )
    print(f"check_vma={check_vma}:")
    print(jax.make_jaxpr(summed)(xs, 1.0).eqns[0].params["jaxpr"])
    print("psum of 1.0 over", ring.shape["i"], "devices:", summed(xs, 1.0))
record("devices", ring.shape["i"])  # hidden
