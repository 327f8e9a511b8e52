import jax
import jax.numpy as jnp

from bookexec.facts import record  # hidden

traces = []
n_types = set()  # the type n arrives as, in every trace


@jax.jit(static_argnames="n")
def power(x, n):
    traces.append("power")
    # static, so a Python value, however it was passed
    n_types.add(type(n).__name__)
    return x**n


@jax.jit
def scale(x, s):
    traces.append("scale")
    return x * s


x = jnp.ones(3)
for call in [
    lambda: power(x, 2),
    lambda: power(x, n=2),
    lambda: power(x=x, n=2),
    lambda: power(x, n=2),  # as before: a hit
    lambda: scale(x, 2.0),
    lambda: scale(x, s=2.0),
    lambda: scale(x, s=3.0),  # a new value, passed as before: a hit
]:
    call()
print(
    "traces of power:",
    traces.count("power"),
    "| traces of scale:",
    traces.count("scale"),
)
print("n arrived as:", sorted(n_types))
record("power", traces.count("power"))  # hidden
record("scale", traces.count("scale"))  # hidden
