import jax
import jax.numpy as jnp
from jax import lax

from bookexec.facts import record  # hidden

x = jnp.linspace(-2.0, 2.0, 5)


def three_way(x):
    # the first condition that holds wins; `default` where none does
    return jnp.select([x < -1, x < 1], [-x, x * x], default=1.0)


print("jnp.select:   ", three_way(x))
print(jax.make_jaxpr(three_way)(x))


def three_way_piecewise(x):
    return jnp.piecewise(
        x, [x < -1, x < 1], [lambda v: -v, lambda v: v * v, 1.0]
    )


# here the last condition that holds wins
print("jnp.piecewise:", three_way_piecewise(x))
record("piecewise_at_minus_2", int(three_way_piecewise(x)[0]))  # hidden
record("select_at_minus_2", int(three_way(x)[0]))  # hidden
# hidden: begin
(call,) = [
    e
    for e in jax.make_jaxpr(three_way_piecewise)(x).jaxpr.eqns
    if "jaxpr" in e.params
]
computed = [
    e
    for e in call.params["jaxpr"].jaxpr.eqns
    if e.primitive.name in ("neg", "mul")
]
record(
    "piecewise_computed",
    " and ".join(f"`{e.primitive.name}`" for e in computed),
)
record(
    "piecewise_computed_type",
    {e.outvars[0].aval.str_short(short_dtypes=True) for e in computed}.pop(),
)
# hidden: end
print("lax.select:   ", lax.select(x < 0, -x, x))
eqn = jax.make_jaxpr(lambda x: lax.select(x < 0, -x, x))(x).jaxpr.eqns[-1]  # fmt: skip  # hidden
record("lax_select_primitive", eqn.primitive.name)  # hidden
# a scalar predicate picks a whole case
print("lax.select(True, x, -x):", lax.select(True, x, -x))
try:
    lax.select(x < 0, -x, 0.0)  # lax.select does not broadcast
except TypeError as err:
    print("lax.select(x < 0, -x, 0.0) ->", type(err).__name__ + ":", err)
# hidden: begin
(select,) = [
    e
    for e in jax.make_jaxpr(three_way)(x).jaxpr.eqns
    if e.primitive.name == "select_n"
]
record("select_cases", len(select.invars) - 1)
# hidden: end
