import jax

from bookexec.facts import record  # hidden


def draw(k):
    return jax.random.uniform(k, (4,))


closed = jax.make_jaxpr(draw)(jax.random.key(42))
print(closed)
# hidden: begin
# For the prose: the `or` equation's constant, read out of the nested jaxpr.
inner = closed.eqns[0].params["jaxpr"]
(or_eqn,) = [e for e in inner.eqns if e.primitive.name == "or"]
constant = int(or_eqn.invars[1].val)
record("or_constant", constant)
record("or_constant_hex", hex(constant))
record("or_constant_printed", str(str(constant) in str(closed)))
# hidden: end
