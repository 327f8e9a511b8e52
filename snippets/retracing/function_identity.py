import jax
import jax.numpy as jnp

from bookexec.facts import record

traced = []


def halve(x):
    traced.append("halve")
    return x / 2


x = jnp.ones(4)
for _ in range(3):
    jax.jit(halve)(x)  # a new jit wrapper each time, the same function inside
same = record("same_function", len(traced))

traced.clear()
for _ in range(3):
    jax.jit(lambda v: halve(v))(x)  # a new lambda object each time
fresh = record("new_lambdas", len(traced))
print("jax.jit(halve), three times:   ", same, "trace(s)")
print("jax.jit(lambda ...), three times:", fresh, "trace(s)")
