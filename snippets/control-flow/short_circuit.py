import jax
import jax.numpy as jnp

from bookexec.facts import record  # hidden

ran = []


def right_side(v):
    # a Python side effect: one entry each time this side is computed
    ran.append("right")
    return v < 1


v = -0.5  # a plain Python float: `v > 0` is a real False
result = (v > 0) and right_side(v)
print(
    "(v > 0) and right_side(v)  ->",
    result,
    f"(right side ran {len(ran)} times)",
)
record("keyword_runs", len(ran))  # hidden
ran.clear()
x = jnp.array([-0.5, -1.5, -2.5])  # `x > 0` is False at every element
result = (x > 0) & right_side(x)
print(
    "(x > 0) & right_side(x)    ->",
    result,
    f"(right side ran {len(ran)} time)",
)
closed = jax.make_jaxpr(lambda x: jnp.logical_and(x > 0, right_side(x)))(x)
print(closed)
codes = [f"`{e.primitive.name}`" for e in closed.jaxpr.eqns]  # hidden
record("both_sides", ", ".join(codes[:-1]) + " and " + codes[-1])  # hidden
