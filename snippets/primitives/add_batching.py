# cyclic_shift_p, cyclic_shift and weighted come from the blocks above
import jax
import jax.numpy as jnp
from jax.interpreters import batching


def cyclic_shift_batch(args, batch_dims, *, shift):
    (x,), (dim,) = args, batch_dims
    # The rule sees the batched type, so it checks the per-example contract
    # again: a batch of scalars has one axis, which is not one to shift.
    if x.ndim == 1:
        raise TypeError(
            "cyclic_shift needs an array with at least one axis per example,"
            f" got a batch of {x.dtype} scalars"
        )
    # The shift runs along the last axis, so the batch axis may stay where
    # it is unless it is that axis.
    if dim == x.ndim - 1:
        x, dim = jnp.moveaxis(x, dim, 0), 0
    # the result, and where its batch axis is
    return cyclic_shift_p.bind(x, shift=shift), dim


batching.primitive_batchers[cyclic_shift_p] = cyclic_shift_batch

rows = jnp.arange(10.0).reshape(2, 5)
print("vmap:", jax.vmap(cyclic_shift)(rows))
print(jax.make_jaxpr(jax.vmap(cyclic_shift))(rows))
# batched along a middle axis: it stays there, and no transpose is needed
blocks = jnp.arange(30.0).reshape(3, 2, 5)
print(jax.make_jaxpr(jax.vmap(cyclic_shift, in_axes=1, out_axes=1))(blocks))
print("jit(vmap(grad)):", jax.jit(jax.vmap(jax.grad(weighted)))(rows))
try:
    jax.vmap(cyclic_shift)(jnp.arange(3.0))  # three scalar examples
except TypeError as err:
    print("TypeError:", err)
