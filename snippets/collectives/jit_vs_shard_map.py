# ring, xs, P and total come from the blocks above
import jax

OPS = ("all-reduce(", "all-gather(", "collective-permute(", "reduce-scatter(")


def collectives(f, *args):
    """Collective operations in the program XLA compiled, by name."""
    hlo = jax.jit(f).lower(*args).compile().as_text()
    return {op[:-1]: n for op in OPS if (n := hlo.count(op))}


def global_sum(v):
    return v.sum()


print("jit with a sharded input, the global program:")
print(jax.make_jaxpr(global_sum)(xs))
print("shard_map, the per-device program:")
print(jax.make_jaxpr(total)(xs).jaxpr.eqns[0].params["jaxpr"])
print("compiled, jit:", collectives(global_sum, xs), " shard_map:", collectives(total, xs))
