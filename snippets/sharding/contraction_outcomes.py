# grid, place and feats come from the blocks above
import re
from collections import Counter

import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

from bookexec.facts import record  # hidden

# 12 features split like feats' columns
weights = place((12, 10), P("model", None))
COLLECTIVES = (
    "all-reduce",
    "all-gather",
    "reduce-scatter",
    "all-to-all",
    "collective-permute",
)
# A GPU or TPU compiler may split a collective into an asynchronous
# `-start`/`-done` pair.
CALL = re.compile(rf" ({'|'.join(COLLECTIVES)})(?:-start)?\(")


def collectives(fn, *args):
    """How many of each collective the compiled program runs, read from its
    HLO text."""
    found = Counter(
        CALL.findall(jax.jit(fn).lower(*args).compile().as_text())
    )
    return {op: found[op] for op in COLLECTIVES if found[op]}


outcomes = {
    "rows": P("data", None),
    "columns": P(None, "data"),
    "copy": P(None, None),
    "unreduced": P("data", None, unreduced={"model"}),
}
with jax.set_mesh(grid):
    for name, spec in outcomes.items():

        def product(x, w, spec=spec):
            return jnp.matmul(x, w, out_sharding=spec)

        result_type = jax.make_jaxpr(product)(feats, weights).out_avals[0]
        talk = collectives(product, feats, weights)
        record(f"{name}_type", str(result_type))  # hidden
        record(f"{name}_collectives", in_words(talk))  # hidden
        print(f"{name:9} {result_type!s:26} {talk or 'no collectives'}")
