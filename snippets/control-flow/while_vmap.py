import jax
import jax.numpy as jnp
from jax import lax

from bookexec.facts import record  # hidden


def double_past_100(x):
    """Double x until it reaches 100, counting the doublings."""

    def below(state):
        value, _ = state
        return value < 100

    def double(state):
        value, steps = state
        return value * 2, steps + 1

    return lax.while_loop(below, double, (x, 0))


starts = jnp.array([1, 30, 200])  # 200 needs no doubling, 1 needs the most
values, steps = jax.vmap(double_past_100)(starts)
print("values:", values)
print("steps: ", steps)
# the while equation
loop = jax.make_jaxpr(jax.vmap(double_past_100))(starts).eqns[-1]
print("cond_jaxpr:", loop.params["cond_jaxpr"])
print("body_jaxpr:", loop.params["body_jaxpr"])
# hidden: begin
lowered = jax.jit(jax.vmap(double_past_100)).lower(starts).as_text()
record("or_reduce", str("applies stablehlo.or" in lowered))
record("selects", lowered.count("stablehlo.select"))
# hidden: end
