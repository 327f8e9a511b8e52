# closed, layer, w and x come from the first block
import jax
import jax.extend as jex
import jax.numpy as jnp
from jax.extend.core.primitives import dot_general_p, tanh_p


def jvp_tanh(primals, tangents, **params):
    (v,), (dv,) = primals, tangents
    y = tanh_p.bind(v, **params)  # with the equation's params (accuracy)
    return y, (1 - y**2) * dv  # d tanh = (1 - tanh^2) dv


def jvp_add(primals, tangents, **params):
    return primals[0] + primals[1], tangents[0] + tangents[1]


def jvp_dot_general(primals, tangents, **params):
    (a, b), (da, db) = primals, tangents

    def dot(u, v):
        # the same contraction
        return dot_general_p.bind(u, v, **params)

    return dot(a, b), dot(da, b) + dot(a, db)  # the product rule


JVP_RULES = {
    "tanh": jvp_tanh,
    "add": jvp_add,
    "dot_general": jvp_dot_general,
}


def evaluate_jvp(jaxpr, consts, primals, tangents):
    """Forward mode as an interpreter: every variable gets a value and a
    tangent."""
    value, tangent = {}, {}

    def read(atom):
        # a constant: its tangent is zero
        if isinstance(atom, jex.core.Literal):
            return atom.val, jnp.zeros_like(atom.val)
        return value[atom], tangent[atom]

    for var, c in zip(jaxpr.constvars, consts, strict=True):
        value[var], tangent[var] = c, jnp.zeros_like(c)
    for var, p, t in zip(jaxpr.invars, primals, tangents, strict=True):
        value[var], tangent[var] = p, t
    for eqn in jaxpr.eqns:
        ps, ts = zip(*(read(atom) for atom in eqn.invars), strict=True)
        name = eqn.primitive.name
        if name not in JVP_RULES:  # a gap in the table is reported
            raise NotImplementedError(f"no JVP rule for {name}")
        (out,) = eqn.outvars
        value[out], tangent[out] = JVP_RULES[name](ps, ts, **eqn.params)
    ((out_value, out_tangent),) = [read(atom) for atom in jaxpr.outvars]
    return out_value, out_tangent


dw, dx = jnp.ones_like(w), jnp.array([0.0, 1.0, 0.0])
ours = evaluate_jvp(closed, closed.consts, (w, x), (dw, dx))
theirs = jax.jvp(layer, (w, x), (dw, dx))
print("ours:   ", ours[1])
print("jax.jvp:", theirs[1])
print(
    jax.make_jaxpr(
        lambda w, x: evaluate_jvp(closed, [], (w, x), (dw, dx))[1]
    )(w, x)
)
try:  # sin is not in the table
    evaluate_jvp(jax.make_jaxpr(jnp.sin)(x), [], (x,), (dx,))
except NotImplementedError as err:
    print("NotImplementedError:", err)
