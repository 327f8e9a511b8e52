from dataclasses import dataclass
from functools import partial

import jax
import jax.numpy as jnp

from bookexec.facts import record  # hidden

traces = {"static self": 0, "pytree self": 0, "free function": 0}


# Fix 1: self is static. A frozen dataclass compares and hashes by its
# fields (the hash is the cache key) and refuses changes to them.
@dataclass(frozen=True)
class StaticScaler:
    factor: float

    @partial(jax.jit, static_argnums=0)
    def apply(self, x):
        traces["static self"] += 1
        return x * self.factor


# Fix 2: self is a pytree whose leaf is the factor, so the factor is traced.
@jax.tree_util.register_dataclass
@dataclass
class TreeScaler:
    factor: jax.Array

    @jax.jit
    def apply(self, x):
        traces["pytree self"] += 1
        return x * self.factor


# Fix 3: the method calls a jitted free function with the values it needs.
@jax.jit
def scale(factor, x):
    traces["free function"] += 1
    return x * factor


class FreeScaler:
    def __init__(self, factor):
        self.factor = factor

    def apply(self, x):
        return scale(self.factor, x)


x = jnp.ones(3)
for factor in (2.0, 2.0, 3.0, 4.0):
    StaticScaler(factor).apply(x)
    TreeScaler(jnp.float32(factor)).apply(x)
    FreeScaler(factor).apply(x)
for name, count in traces.items():
    print(f"{name:13} 4 calls, 3 distinct factors, traces: {count}")
    record(name.replace(" ", "_"), count)  # hidden
