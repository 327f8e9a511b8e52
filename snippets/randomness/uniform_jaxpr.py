import jax

from bookexec.facts import record  # hidden


def draw(k):
    return jax.random.uniform(k, (4,))


closed = jax.make_jaxpr(draw)(jax.random.key(42))
print(closed)

# Find the `or` equation inside the nested jaxpr and read its constant.
inner = closed.jaxpr.eqns[0].params["jaxpr"].jaxpr
(or_eqn,) = [e for e in inner.eqns if e.primitive.name == "or"]
constant = int(or_eqn.invars[1].val)
record("or_constant", constant)  # hidden
record("or_constant_hex", hex(constant))  # hidden
record("inner_eqns", len(inner.eqns))  # hidden
print("or constant:", constant, "=", hex(constant))
print("appears in the printout:", "1065353216" in str(closed))

# hidden: begin
# The printer's own rule for "long", read from the pinned JAX's source, for the prose.
import inspect  # noqa: E402
import re  # noqa: E402

from jax._src import core as jax_core  # noqa: E402

src = inspect.getsource(jax_core.pp_toplevel_jaxpr)
(rule,) = [ln.strip() for ln in src.splitlines() if "len(jaxpr.eqns) >" in ln]
record("inline_limit", int(re.search(r"> (\d+)", rule).group(1)))
# hidden: end
