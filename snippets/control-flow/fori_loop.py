import jax
import jax.numpy as jnp
from jax import lax

from bookexec.facts import record  # hidden


def double(i, v):  # fori_loop's body takes the counter and the carry
    return v * 2.0


def five_doublings(x):
    return lax.fori_loop(0, 5, double, x)  # bounds are Python ints


def n_doublings(x, n):
    return lax.fori_loop(0, n, double, x)  # n is traced under jit


x = jnp.float32(3.0)
fixed = jax.make_jaxpr(five_doublings)(x)
traced = jax.make_jaxpr(n_doublings)(x, 5)
print(fixed)
print(traced)
record("fixed_primitive", fixed.jaxpr.eqns[0].primitive.name)  # hidden
record("traced_primitive", traced.jaxpr.eqns[0].primitive.name)  # hidden
print("jit, Python bounds: ", jax.jit(five_doublings)(x))
print("jit, traced bound:  ", jax.jit(n_doublings)(x, 5))
print("grad, Python bounds:", int(jax.grad(five_doublings)(x)))
record("grad_fixed", int(jax.grad(five_doublings)(x)))  # hidden
try:
    jax.jit(jax.grad(n_doublings))(x, 5)
except ValueError as err:
    print("grad, traced bound:  ValueError:", str(err).split(". ")[0])
