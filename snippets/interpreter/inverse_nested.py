# inverse, backwards, INVERSE_OF_CALL, xs and ys come from the blocks above
import jax
import jax.numpy as jnp


@jax.jit
def affine(x):
    return 2.0 * x - 1.0


def squash_jitted(x):
    return jnp.tanh(affine(x)) / 4.0  # squash again, with a jitted helper


print(jax.make_jaxpr(squash_jitted)(xs).eqns[0].primitive.name)
try:
    inverse(squash_jitted)(ys)
except NotImplementedError as err:
    print("NotImplementedError:", err)


def invert_call(eqn, y):
    """Invert a call of one operand by running its own program backwards."""
    if len(eqn.invars) != 1:  # backwards takes a program of one input
        raise NotImplementedError(
            f"{eqn.primitive.name} of {len(eqn.invars)} operands"
        )
    inner = eqn.params["jaxpr"]
    return backwards(inner, inner.consts, y)


INVERSE_OF_CALL["jit"] = invert_call
print("inverse(y):", inverse(squash_jitted)(ys))
print(jax.make_jaxpr(inverse(squash_jitted))(ys))


@jax.jit
def scale_shift(x, s):  # a second operand, known but passed in
    return s * x - 1.0


try:
    inverse(lambda x: jnp.tanh(scale_shift(x, 2.0)) / 4.0)(ys)
except NotImplementedError as err:
    print("NotImplementedError:", err)


@jax.jit
def two(x):  # two results: the caller reads only the second
    return x + 1.0, 2.0 * x


try:
    inverse(lambda x: jnp.tanh(two(x)[1]))(ys)
except NotImplementedError as err:
    print("NotImplementedError:", err)
