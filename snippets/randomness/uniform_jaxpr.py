import jax

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
