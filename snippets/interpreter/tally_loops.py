# flops and tally come from the block above
from collections import Counter

import jax
import jax.extend as jex
import jax.numpy as jnp
from jax import lax

from bookexec.facts import record  # hidden


def steps(x):
    x, _ = lax.scan(
        lambda c, _: (jnp.tanh(c) * 2.0, None), x, None, length=10
    )
    # relu: a custom_jvp_call
    return jax.nn.relu(lax.cond(x.sum() > 0, jnp.sin, jnp.cos, x))


program = jax.make_jaxpr(steps)(jnp.ones(8))
print([eqn.primitive.name for eqn in program.eqns])
counts = Counter()
tally(program, counts)
print("tally:      ", dict(sorted(counts.items())))
record("tanh_once", counts["tanh"])  # hidden


def tally_loops(jaxpr, counts, times=1):
    for eqn in jaxpr.eqns:
        name = eqn.primitive.name
        if name == "scan":  # the body runs `length` times
            tally_loops(
                eqn.params["jaxpr"],
                counts,
                times * eqn.params["length"],
            )
        # one branch runs: count the costliest, an upper bound
        elif name == "cond":
            options = []
            for branch in eqn.params["branches"]:
                options.append(Counter())
                tally_loops(branch, options[-1], times)
            counts.update(max(options, key=lambda c: sum(c.values())))
        # a call: runs once
        elif inner := list(jex.core.jaxprs_in_params(eqn.params)):
            for program in inner:
                tally_loops(program, counts, times)
        else:
            counts[name] += times * flops(eqn)


counts = Counter()
tally_loops(program, counts)
print("tally_loops:", dict(sorted(counts.items())))
record("tanh_all", counts["tanh"])  # hidden
record("length", program.eqns[0].params["length"])  # hidden

grow = jax.make_jaxpr(
    lambda x: lax.while_loop(lambda c: c.sum() < 1e3, lambda c: c * 2.0, x)
)
print("while params:", sorted(grow(jnp.ones(8)).eqns[0].params))
