import inspect
import re

import jax
from jax._src import core as jax_core

from bookexec.facts import record


def draw(k):
    return jax.random.uniform(k, (4,))


closed = jax.make_jaxpr(draw)(jax.random.key(42))
print(closed)

# Find the `or` equation inside the nested jaxpr and read its constant.
inner = closed.jaxpr.eqns[0].params["jaxpr"].jaxpr
(or_eqn,) = [e for e in inner.eqns if e.primitive.name == "or"]
constant = int(or_eqn.invars[1].val)
record("or_constant", constant)
record("or_constant_hex", hex(constant))
record("inner_eqns", len(inner.eqns))
print("or constant:", constant, "=", hex(constant))
print("appears in the printout:", "1065353216" in str(closed))

# The printer's own rule for "long", read from the pinned JAX's source.
src = inspect.getsource(jax_core.pp_toplevel_jaxpr)
(rule,) = [ln.strip() for ln in src.splitlines() if "len(jaxpr.eqns) >" in ln]
print("printer source:", rule)
print("inline limit:", record("inline_limit", int(re.search(r"> (\d+)", rule).group(1))))
