import jax
import jax.numpy as jnp


def pick(x):
    with jax.ensure_compile_time_eval():
        n = jnp.asarray(x.shape[0])  # the shape is known, so n is a concrete array
        big = bool(n > 2)  # and a Python if may read it
        try:
            bool(x.sum() > 0)  # x itself is still only a type
        except jax.errors.ConcretizationTypeError as err:
            print(type(err).__name__, "for x.sum() > 0")
    print("n is", type(n).__name__, int(n), "; big:", big)
    return x * 2 if big else x


print(jax.jit(pick)(jnp.ones(3)))
