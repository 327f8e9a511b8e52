import jax
import jax.extend as jex
import jax.numpy as jnp


def layer(w, x):
    return jnp.tanh(w @ x) + 1.0


w = jnp.arange(6.0).reshape(2, 3) / 10
x = jnp.array([1.0, -1.0, 0.5])
closed = jax.make_jaxpr(layer)(w, x)
print(closed)
print("ClosedJaxpr is Jaxpr:", jex.core.ClosedJaxpr is jex.core.Jaxpr)
# .jaxpr: a legacy accessor, kept for code written for the old ClosedJaxpr
print("closed.jaxpr is closed:", closed.jaxpr is closed)
# a Var is an object compared by identity; name each in order of appearance
names = {}


def name(atom):
    if isinstance(atom, jex.core.Literal):
        return f"literal {atom.val}"
    return names.setdefault(atom, f"v{len(names)}")


print("invars:", [name(v) for v in closed.invars], "consts:", closed.consts)
for eqn in closed.eqns:
    ins = ", ".join(name(v) for v in eqn.invars)
    outs = ", ".join(f"{name(v)}:{v.aval}" for v in eqn.outvars)
    print(
        f"{outs} = {eqn.primitive.name}({ins}); params: {sorted(eqn.params)}"
    )
print("outvars:", [name(v) for v in closed.outvars])
