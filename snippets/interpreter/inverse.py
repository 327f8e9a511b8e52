import jax
import jax.extend as jex
import jax.numpy as jnp

# For y = prim(x, c) with a known constant c: x as a function of y and c.
INVERSE = {
    "exp": lambda y: jnp.log(y),
    "log": lambda y: jnp.exp(y),
    "tanh": lambda y: jnp.arctanh(y),
    "neg": lambda y: -y,
}
INVERSE_WITH_CONSTANT = {
    "add": lambda y, c, side: y - c,
    "mul": lambda y, c, side: y / c,
    "sub": lambda y, c, side: y + c if side == 0 else c - y,
    "div": lambda y, c, side: y * c if side == 0 else c / y,
}


# Primitives that hold a program of their own: none yet (see below).
INVERSE_OF_CALL = {}


def backwards(jaxpr, consts, y):
    """Run the equations of a one-input, one-output jaxpr from its output to
    its input."""
    known = dict(zip(jaxpr.constvars, consts, strict=True))

    def is_known(atom):
        return isinstance(atom, jex.core.Literal) or atom in known

    def value(atom):
        if isinstance(atom, jex.core.Literal):
            return atom.val
        return known[atom]

    # First forwards: evaluate what the constants alone determine, such as
    # the broadcast of jnp.ones(3) or the sin of jnp.sin(1.0).
    for eqn in jaxpr.eqns:
        if all(is_known(v) for v in eqn.invars):
            params = eqn.primitive.get_bind_params(eqn.params)
            outs = eqn.primitive.bind(*map(value, eqn.invars), **params)
            if not eqn.primitive.multiple_results:
                outs = [outs]
            known.update(zip(eqn.outvars, outs, strict=True))
    (out,) = jaxpr.outvars
    env = {out: y}
    for eqn in reversed(jaxpr.eqns):
        # computed forwards, or dead code that make_jaxpr kept: nothing on
        # the way to the output reads it
        if not any(v in env for v in eqn.outvars):
            continue
        name = eqn.primitive.name
        if len(eqn.outvars) != 1:  # each rule undoes a single result
            raise NotImplementedError(
                f"{name} of {len(eqn.outvars)} results"
            )
        result = env.pop(eqn.outvars[0])
        unknown = [
            (i, v) for i, v in enumerate(eqn.invars) if not is_known(v)
        ]
        if len(unknown) != 1:  # x * x: both operands depend on the input
            raise NotImplementedError(
                f"{name}: {len(unknown)} operands depend on the input"
            )
        ((side, var),) = unknown
        if name in INVERSE:
            env[var] = INVERSE[name](result)
        elif name in INVERSE_WITH_CONSTANT:
            other = eqn.invars[1 - side]
            c = value(other)
            env[var] = INVERSE_WITH_CONSTANT[name](result, c, side)
        elif name in INVERSE_OF_CALL:
            env[var] = INVERSE_OF_CALL[name](eqn, result)
        else:
            raise NotImplementedError(f"no inverse rule for {name}")
    return env[jaxpr.invars[0]]


def inverse(f):
    """A transformation: trace f (again at every call), then run its
    equations backwards."""

    def inverted(y):
        closed = jax.make_jaxpr(f)(y)
        return backwards(closed, closed.consts, y)

    return inverted


def squash(x):
    return jnp.tanh(2.0 * x - 1.0) / 4.0


xs = jnp.array([-0.5, 0.25, 1.0])
ys = squash(xs)
print("x:           ", xs)
print("inverse(y):  ", inverse(squash)(ys))
print("jit(inverse):", jax.jit(inverse(squash))(ys))
# traced one example at a time
print("vmap(inverse):", jax.vmap(inverse(squash))(ys))
# dx/dy
print("grad(inverse):", jax.grad(lambda y: inverse(squash)(y).sum())(ys))
print("1 / (dy/dx):  ", 1 / jax.vmap(jax.grad(squash))(xs))
print(jax.make_jaxpr(inverse(squash))(ys))
