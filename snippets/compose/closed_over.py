import jax
import jax.numpy as jnp
import numpy as np

sizes = jnp.array([1, 2, 6, 24])  # made before any trace: known values


def shrink(x):
    print("sizes is a", type(sizes).__name__)
    try:
        int(sizes[2])  # the indexing is staged: sizes[2] is a tracer
    except jax.errors.ConcretizationTypeError as err:
        print(type(err).__name__, "for int(sizes[2])")
    with jax.ensure_compile_time_eval():
        steps = int(sizes[2])  # computed now, while tracing
    print("inside ensure_compile_time_eval:", steps)
    print("through NumPy:", int(np.asarray(sizes)[2]))
    return x / 2**steps


print(jax.jit(shrink)(jnp.ones(2)))
