import functools

import jax
import jax.numpy as jnp
from jax.tree_util import Partial


def scale(w, x):
    return w * x


w = jnp.array([1.0, 2.0])
print("Partial's leaves:", jax.tree.leaves(Partial(scale, w)))
opaque = jax.tree.leaves(functools.partial(scale, w))
print(
    "functools.partial's leaves:", [type(leaf).__name__ for leaf in opaque]
)


@jax.jit
def apply_twice(f, x):
    print("tracing; f's bound arguments are", f.args)
    return f(f(x))


x = jnp.ones(2)
print(apply_twice(Partial(scale, w), x))
# new values: no new trace
print(apply_twice(Partial(scale, jnp.array([3.0, 4.0])), x))
# a new function: a new treedef, a new trace
print(apply_twice(Partial(jnp.add, w), x))
try:
    apply_twice(functools.partial(scale, w), x)
except TypeError as err:
    print("functools.partial:", type(err).__name__)


@jax.jit
def halved(w):
    return Partial(scale, w / 2)  # a function comes out of jit


print(halved(w)(x))
