import operator

import jax
import jax.numpy as jnp
from jax.extend.core import Primitive

# a name for the jaxpr, and empty rule tables
cyclic_shift_p = Primitive("cyclic_shift")


def cyclic_shift(x, shift=1):
    """Move entries `shift` places along the last axis, wrapping around."""
    # A parameter is a static, hashable Python value: refuse a float, or a
    # traced value, here rather than let it be recorded in the jaxpr.
    shift = operator.index(shift)
    # bind: emit an equation, or run it
    return cyclic_shift_p.bind(x, shift=shift)


@cyclic_shift_p.def_abstract_eval
def cyclic_shift_abstract(x, *, shift):
    # The type rule is the primitive's contract: refuse what the
    # implementation cannot do.
    if x.ndim == 0:
        raise TypeError(
            f"cyclic_shift needs an array with at least one axis, got {x}"
        )
    # `update` starts from the whole input type, so the weak type, sharding
    # and memory space carry over where a new ShapedArray would drop them.
    return x.update()


@cyclic_shift_p.def_impl
def cyclic_shift_impl(x, *, shift):
    return jnp.roll(x, shift, axis=-1)  # eager: operations JAX already has


x = jnp.arange(5.0)
print("eager:", cyclic_shift(x))
print(jax.make_jaxpr(cyclic_shift)(x))
weak = jax.ShapeDtypeStruct((5,), jnp.float32, weak_type=True)
print("weak type kept:", jax.eval_shape(cyclic_shift, weak).weak_type)
try:
    jax.eval_shape(cyclic_shift, 1.0)
except TypeError as err:
    print("TypeError:", err)
try:
    cyclic_shift(x, 1.5)
except TypeError as err:
    print("TypeError:", err)
