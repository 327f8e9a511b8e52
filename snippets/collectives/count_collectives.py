# xs comes from the block above
import re
from collections import Counter

import jax
import jax.numpy as jnp

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


print("jnp.sum of xs:", collectives(jnp.sum, xs))
print("xs * 2:", collectives(lambda x: x * 2, xs) or "none")
