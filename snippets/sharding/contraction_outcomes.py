# Grid, place and feats come from the blocks above
import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as Spec

from bookexec.facts import record  # hidden

weights = place((12, 10), Spec("model", None))  # 12 features split like feats' columns
COLLECTIVES = ("all-reduce", "all-gather", "reduce-scatter", "all-to-all")


def collectives(fn, *args):
    """How many of each collective the compiled program runs, read from its HLO text."""
    text = jax.jit(fn).lower(*args).compile().as_text()
    counts = {op: text.count(f" {op}(") for op in COLLECTIVES}
    return {op: n for op, n in counts.items() if n}


outcomes = {
    "rows": Spec("data", None),
    "columns": Spec(None, "data"),
    "copy": Spec(None, None),
    "unreduced": Spec("data", None, unreduced={"model"}),
}
with jax.set_mesh(grid):
    for name, spec in outcomes.items():

        def product(x, w, spec=spec):
            return jnp.matmul(x, w, out_sharding=spec)

        result_type = jax.make_jaxpr(product)(feats, weights).out_avals[0]
        talk = collectives(product, feats, weights)
        record(f"{name}_type", str(result_type))  # hidden
        record(f"{name}_collectives", sum(talk.values()))  # hidden
        print(f"{name:9} {result_type!s:26} {talk or 'no communication'}")
