# a walker over the equations' types; the values come from jaxpr_as_fun
import math
from collections import Counter

import jax
import jax.extend as jex
import jax.numpy as jnp

from bookexec.facts import record  # hidden

ELEMENTWISE = {
    "add",
    "sub",
    "mul",
    "div",
    "tanh",
    "exp",
    "sin",
    "cos",
    "max",
    "gt",
    "neg",
    "log",
}
# primitives that only move or relabel data: no arithmetic
MOVES_DATA = {
    "broadcast_in_dim",
    "reshape",
    "squeeze",
    "transpose",
    "slice",
    "concatenate",
    "convert_element_type",
}


def flops(eqn):
    """Floating-point operations of one equation, from its types alone."""
    name = eqn.primitive.name
    out = eqn.outvars[0].aval
    if name in ELEMENTWISE:
        return math.prod(out.shape)
    if name == "dot_general":
        (contract, _), _ = eqn.params["dimension_numbers"]
        lhs = eqn.invars[0].aval.shape
        return 2 * math.prod(out.shape) * math.prod(lhs[d] for d in contract)
    if name == "reduce_sum":
        return math.prod(eqn.invars[0].aval.shape) - math.prod(out.shape)
    if name in MOVES_DATA:
        return 0
    # a gap in the table is reported, not counted as free
    raise NotImplementedError(f"no flop rule for {name}")


def tally(jaxpr, counts):
    for eqn in jaxpr.eqns:
        # programs held in params
        inner = list(jex.core.jaxprs_in_params(eqn.params))
        # a jit's body, a cond's branches...: count each once
        for program in inner:
            tally(program, counts)
        if not inner:
            counts[eqn.primitive.name] += flops(eqn)


def count_flops(f):
    """A transformation: the same function, returning its flat outputs and a
    flop tally."""

    def counted(*args):
        closed = jax.make_jaxpr(f)(*args)
        counts = Counter()
        tally(closed, counts)
        return jex.core.jaxpr_as_fun(closed)(*args), dict(
            sorted(counts.items())
        )

    return counted


def mlp(w1, w2, x):
    return jnp.tanh(x @ w1) @ w2


w1, w2, xb = jnp.ones((64, 32)), jnp.ones((32, 8)), jnp.ones((16, 64))
(value,), counts = count_flops(mlp)(w1, w2, xb)  # mlp has one output
print("per primitive:", counts)
print(
    "same value as jit:", bool(jnp.allclose(value, jax.jit(mlp)(w1, w2, xb)))
)
cost = jax.jit(mlp).lower(w1, w2, xb).compile().cost_analysis()
print(
    "XLA's cost analysis:",
    {k: int(cost[k]) for k in ("flops", "transcendentals")},
)
record("dot_flops", counts["dot_general"])  # hidden
record("tanh_flops", counts["tanh"])  # hidden
agrees = (
    counts["dot_general"] == cost["flops"]
    and counts["tanh"] == cost["transcendentals"]
)
record("xla_agrees", str(agrees))  # hidden
print("tally agrees with XLA:", agrees)
try:
    count_flops(jax.nn.sigmoid)(xb)
except NotImplementedError as err:
    print("NotImplementedError:", err)
