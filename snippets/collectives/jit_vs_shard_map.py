# ring, xs, P and total come from the blocks above
import re
from collections import Counter

import jax

OPS = ("all-reduce", "all-gather", "collective-permute", "reduce-scatter")
# A GPU or TPU compiler may split a collective into an asynchronous
# `-start`/`-done` pair.
CALL = re.compile(rf" ({'|'.join(OPS)})(?:-start)?\(")


def collectives(f, *args):
    """Collective operations in the program XLA compiled, by name."""
    found = Counter(
        CALL.findall(jax.jit(f).lower(*args).compile().as_text())
    )
    return {op: found[op] for op in OPS if found[op]}


def global_sum(v):
    return v.sum()


print("jit with a sharded input, the global program:")
print(jax.make_jaxpr(global_sum)(xs))
print("shard_map, the per-device program:")
print(jax.make_jaxpr(total)(xs).jaxpr.eqns[0].params["jaxpr"])
print(
    "compiled, jit:",
    collectives(global_sum, xs),
    " shard_map:",
    collectives(total, xs),
)
