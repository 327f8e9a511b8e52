import jax

from bookexec.facts import record  # hidden


def draw(k):
    return jax.random.uniform(k, (4,))


closed = jax.make_jaxpr(draw)(jax.random.key(42))
print(closed)
# hidden: begin
# For the prose: the `or` equation's constant, read out of the nested jaxpr.
inner = closed.jaxpr.eqns[0].params["jaxpr"].jaxpr
(or_eqn,) = [e for e in inner.eqns if e.primitive.name == "or"]
constant = int(or_eqn.invars[1].val)
record("or_constant", constant)
record("or_constant_hex", hex(constant))
record("or_constant_printed", str(str(constant) in str(closed)))
record("inner_eqns", len(inner.eqns))

# The printer's own rule for "long", read from the pinned JAX's source.
import inspect  # noqa: E402
import re  # noqa: E402

from jax._src import core as jax_core  # noqa: E402

src = inspect.getsource(jax_core.pp_toplevel_jaxpr)
(rule,) = [ln.strip() for ln in src.splitlines() if "len(jaxpr.eqns) >" in ln]
record("inline_limit", int(re.search(r"> (\d+)", rule).group(1)))
# hidden: end
