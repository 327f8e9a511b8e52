# cyclic_shift and x come from the blocks above
import jax


def weighted(v):
    return (cyclic_shift(v) * jax.numpy.arange(5.0)).sum()


jax.grad(weighted)(x)
