# grid, feats, weights, outcomes, COLLECTIVES and P come from the blocks
# above
import re

import jax
import jax.numpy as jnp

from bookexec.facts import record  # hidden

# "all-reduce f32[3,10]": each collective with the shape it returns, read
# from the compiled program (an asynchronous -start form counts too)
OPS = "|".join(COLLECTIVES)
MOVED = re.compile(rf"= (\w+\[[\d,]*\])\S* ({OPS})(?:-start)?\(")


def moved(fn, *args):
    text = jax.jit(fn).lower(*args).compile().as_text()
    return [f"{op} {shape}" for shape, op in MOVED.findall(text)]


# The total of the product, with its copies summed before or after the
# sum over the product's elements.
with jax.set_mesh(grid):
    for name in ("rows", "unreduced"):

        def total(x, w, spec=outcomes[name]):
            product = jnp.matmul(x, w, out_sharding=spec)
            return jax.reshard(product.sum(), P())

        talk = moved(total, feats, weights)
        record(f"{name}_moved", ", ".join(talk))  # hidden
        print(f"{name:9} {total(feats, weights)}  {talk}")
