import jax
import jax.numpy as jnp
import numpy as np
from jax.extend.core import Primitive

cyclic_shift_p = Primitive("cyclic_shift")  # a name for the jaxpr, and empty rule tables


def cyclic_shift(x, shift=1):
    """Move every entry `shift` places along the last axis, wrapping around."""
    return cyclic_shift_p.bind(x, shift=shift)  # bind: emit an equation, or run it


@cyclic_shift_p.def_abstract_eval
def cyclic_shift_abstract(x, *, shift):
    # The output's type, from the input's. `update` starts from the whole input type, so the
    # weak type, sharding and memory space carry over where a new ShapedArray would drop them.
    return x.update(shape=x.shape, dtype=x.dtype)


@cyclic_shift_p.def_impl
def cyclic_shift_impl(x, *, shift):
    return jnp.asarray(np.roll(np.asarray(x), shift, axis=-1))  # eager: plain NumPy


x = jnp.arange(5.0)
print("eager:", cyclic_shift(x))
print(jax.make_jaxpr(cyclic_shift)(x))
print("weak type of a Python scalar kept:", jax.eval_shape(cyclic_shift, 1.0).weak_type)
