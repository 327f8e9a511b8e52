# ring, xs, P, total and collectives come from the blocks above
import jax


def global_sum(v):
    return v.sum()


print("the global program, which jit partitions:")
print(jax.make_jaxpr(global_sum)(xs))
print("shard_map, the per-device program:")
print(jax.make_jaxpr(total)(xs).jaxpr.eqns[0].params["jaxpr"])
print(
    "compiled, jit:",
    collectives(global_sum, xs),
    " shard_map:",
    collectives(total, xs),
)
