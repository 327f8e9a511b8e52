import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import io_callback


def host_cube(x):
    return np.asarray(x) ** 3


def with_pure(x):
    out = jax.ShapeDtypeStruct(x.shape, x.dtype)
    return jax.pure_callback(
        host_cube, out, x, vmap_method="sequential"
    ).sum()


def with_io(x):
    out = jax.ShapeDtypeStruct(x.shape, x.dtype)
    return io_callback(host_cube, out, x, ordered=False).sum()


def with_ordered_io(x):
    out = jax.ShapeDtypeStruct(x.shape, x.dtype)
    return io_callback(host_cube, out, x, ordered=True).sum()


def with_debug(x):
    jax.debug.callback(lambda v: None, x)
    return (x**3).sum()


TRANSFORMS = {
    "jit": jax.jit,
    "vmap": jax.vmap,
    "grad": jax.grad,
}
batch = jnp.arange(6.0).reshape(2, 3)
messages = {}
for fn in (with_pure, with_io, with_ordered_io, with_debug):
    cells = []
    for name, transform in TRANSFORMS.items():
        arg = batch if name == "vmap" else batch[0]
        try:
            jax.block_until_ready(transform(fn)(arg))
            cells.append(f"{name}: ok")
        except Exception as err:
            cells.append(f"{name}: {type(err).__name__}")
            messages[f"{fn.__name__} under {name}"] = str(err).splitlines()[
                0
            ]
    print(f"{fn.__name__:16}", " | ".join(cells))
for where, message in messages.items():
    print(f"{where}: {message}")


def scaled_by_host(x):  # neither callback's operands depend on x
    out = jax.ShapeDtypeStruct((), jnp.float32)
    three = jax.pure_callback(lambda: np.float32(3.0), out)
    four = io_callback(lambda: np.float32(4.0), out, ordered=True)
    return x * three + four


print("grad, no operand depending on x:", jax.grad(scaled_by_host)(2.0))
