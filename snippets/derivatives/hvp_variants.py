# loss, x, v and n come from the block above
from functools import partial

import jax
import jax.numpy as jnp

from bookexec.facts import record  # hidden


def fwd_over_rev(x, v):  # jvp of grad
    return jax.jvp(jax.grad(loss), (x,), (v,))[1]


def directional(x, v):  # the directional derivative of loss along v
    return jax.jvp(loss, (x,), (v,))[1]


def rev_over_fwd(x, v):  # grad of a jvp
    return jax.grad(directional)(x, v)


def grad_dot(x, v):  # the gradient's dot product with v
    return jnp.vdot(jax.grad(loss)(x), v)


def rev_over_rev(x, v):  # grad of grad
    return jax.grad(grad_dot)(x, v)


variants = [fwd_over_rev, rev_over_fwd, rev_over_rev]
reference = jax.jit(fwd_over_rev)(x, v)
for f in variants:
    same = bool(jnp.allclose(jax.jit(f)(x, v), reference, atol=1e-4))
    print(f.__name__, "same vector:", same)

# An outer reverse pass keeps the residuals of everything it differentiates:
# the leaves of its pullback. An outer jvp keeps nothing for later.
for inner in (directional, grad_dot):
    _, pullback = jax.vjp(partial(inner, v=v), x)
    leaves = jax.tree.leaves(pullback)
    vectors = sum(leaf.shape == x.shape for leaf in leaves)
    rest = [leaf.shape for leaf in leaves if leaf.shape != x.shape]
    record(f"{inner.__name__}_kept", vectors)  # hidden
    print(
        f"grad of {inner.__name__} keeps {vectors} vectors like x, and", rest
    )

V = jnp.eye(n)[:, :5]  # five directions as columns
# a Hessian-matrix product
hmp = jax.vmap(fwd_over_rev, in_axes=(None, 1), out_axes=1)
print("vmap of hvp, shape", hmp(x, V).shape, end=": ")
print(
    "equals H @ V:",
    bool(jnp.allclose(hmp(x, V), jax.hessian(loss)(x) @ V, atol=1e-4)),
)
