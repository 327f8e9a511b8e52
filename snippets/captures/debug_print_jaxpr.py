import jax

from bookexec.facts import record  # hidden


def halve(x):
    jax.debug.print("x is {x}", x=x)
    return x / 2


closed = jax.make_jaxpr(halve)(1.0)
print("primitives:", [eqn.primitive.name for eqn in closed.eqns])
first = closed.eqns[0]
print("fmt:       ", first.params["fmt"])
print("inputs:    ", len(first.invars))
record("debug_inputs", len(first.invars))  # hidden
print("outputs:   ", len(first.outvars))
record("debug_outputs", len(first.outvars))  # hidden
