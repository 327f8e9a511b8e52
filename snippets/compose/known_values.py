import jax
import jax.numpy as jnp


def halve(x):
    with jax.ensure_compile_time_eval():
        sizes = jnp.cumprod(jnp.arange(1, 5))  # [1, 2, 6, 24], computed now
        # a concrete array, so int() gives a loop bound
        steps = int(sizes[2])
        positive = x.sum() > 0  # no error: staged, as anywhere under jit
        print("x.sum() > 0 inside the block:", type(positive).__name__)
        # x itself is still only a type, so bool() raises; it raises
        # TracerBoolConversionError, a subclass of ConcretizationTypeError
        try:
            bool(positive)
        except jax.errors.ConcretizationTypeError as err:
            print(type(err).__name__, "for x.sum() > 0")
    print("loop bound:", steps)
    for _ in range(steps):
        x = x / 2
    return x


print(jax.jit(halve)(jnp.ones(3)))
