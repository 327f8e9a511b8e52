from functools import partial

import jax


@partial(jax.jit, static_argnames="n")
def noise(key, n):
    return jax.random.normal(key, (n,))  # n is a Python int here


key = jax.random.key(0)
print(noise(key, n=3))
print(noise(key, n=5))  # a new n: a new trace and a new program
