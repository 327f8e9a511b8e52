import functools

import jax
import jax.numpy as jnp

from bookexec.facts import record  # hidden

traced = []


def halve(x):
    traced.append("halve")
    return x / 2


def scaled(x, scale):
    traced.append("scaled")
    return x / scale


x = jnp.ones(4)
for _ in range(3):
    # a new jit wrapper each time, the same function inside
    jax.jit(halve)(x)
same = len(traced)
record("same_function", same)  # hidden

traced.clear()
for _ in range(3):
    jax.jit(lambda v: halve(v))(x)  # a new lambda object each time
fresh = len(traced)
record("new_lambdas", fresh)  # hidden

traced.clear()
for scale in (2.0, 2.0, 3.0):
    # a new partial object each time
    jax.jit(functools.partial(scaled, scale=scale))(x)
partials = len(traced)
record("new_partials", partials)  # hidden
print("jax.jit(halve), three times:   ", same, "trace(s)")
print("jax.jit(lambda ...), three times:", fresh, "trace(s)")
print("jax.jit(partial(...)), three times:", partials, "trace(s)")
