import jax
import jax.extend as jex
import jax.numpy as jnp

w3 = jnp.array([1.0, 2.0, 3.0])


def f(x):
    return jnp.sum(jnp.sin(x) * w3 + x)  # x feeds two terms: cotangents add


x3 = jnp.array([0.1, 0.2, 0.3])
_, f_lin = jax.linearize(f, x3)  # the linear map x-dot -> tangent of f
linear = jax.make_jaxpr(f_lin)(x3)
print(linear)


def transpose(jaxpr, consts, ct_out):
    """Cotangents of a linear jaxpr's inputs, walking its equations
    backwards."""
    # values not on the linear path
    known = dict(zip(jaxpr.constvars, consts, strict=True))
    cts = {jaxpr.outvars[0]: ct_out}

    def value(atom):
        return (
            atom.val
            if isinstance(atom, jex.core.Literal)
            else known.get(atom)
        )

    def add_ct(var, ct):
        cts[var] = cts[var] + ct if var in cts else ct

    for eqn in reversed(jaxpr.eqns):
        ct = cts.pop(eqn.outvars[0], None)
        if ct is None:
            continue
        name, ins = eqn.primitive.name, eqn.invars
        # One rule per primitive: the cotangent of the output, moved onto the
        # linear inputs.
        if name == "mul":  # one operand known, the other linear
            a, b = ins
            if value(a) is not None:
                add_ct(b, ct * value(a))
            else:
                add_ct(a, ct * value(b))
        elif name == "reduce_sum":
            # put back the summed axes, then spread the cotangent over them
            summed = jnp.expand_dims(ct, eqn.params["axes"])
            add_ct(ins[0], jnp.broadcast_to(summed, ins[0].aval.shape))
        elif name in ("add", "add_any"):
            add_ct(ins[0], ct)
            add_ct(ins[1], ct)
        else:
            raise NotImplementedError(f"no transpose rule for {name}")
    return [
        cts.get(v, jnp.zeros(v.aval.shape, v.aval.dtype))
        for v in jaxpr.invars
    ]


print("ours:     ", transpose(linear, linear.consts, jnp.float32(1.0))[0])
print("jax.grad: ", jax.grad(f)(x3))
print(
    "linear_transpose:", jax.linear_transpose(f_lin, x3)(jnp.float32(1.0))[0]
)
