from collections import Counter

import jax
import jax.numpy as jnp

# lax: JAX's lower-level primitives
from jax import lax

from bookexec.facts import record  # hidden

calls = Counter()  # how many times each branch's Python body has run


def climb(v):
    calls["climb"] += 1
    return v + 1.0


def descend(v):
    calls["descend"] += 1
    return v - 1.0


def toward_ten(x):
    return lax.cond(x >= 10.0, descend, climb, x)


step = jax.jit(toward_ten)
print("from 12:", step(jnp.float32(12.0)), " bodies run:", dict(calls))
record("climb_after_first", calls["climb"])  # hidden
record("descend_after_first", calls["descend"])  # hidden
print("from 3: ", step(jnp.float32(3.0)), " bodies run:", dict(calls))
