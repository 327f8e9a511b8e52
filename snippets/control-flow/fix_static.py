from functools import partial

import jax
import jax.numpy as jnp


def tame(x, mode):
    print("tracing for mode", repr(mode))
    if mode == "smooth":  # a Python str while tracing: this if is fine
        return jnp.tanh(x)
    return jnp.minimum(x, 1.0)


tame_fast = jax.jit(tame, static_argnames="mode")
x = jnp.array([0.5, 3.0])
print(tame_fast(x, mode="smooth"))
print(tame_fast(x, mode="smooth"))  # the same mode: cached, no trace
print(tame_fast(x, mode="cap"))  # a new mode: traced again
print(jax.make_jaxpr(partial(tame, mode="cap"))(x))
