import jax
import jax.numpy as jnp


def wobble(x):
    return jnp.sin(x) * x


x = jnp.array([0.5, 1.0, 2.0])
ones = jnp.ones(3)

# the value, and a function from cotangents to cotangents
y, pullback = jax.vjp(wobble, x)
print(
    "vjp:       value",
    y,
    "and a",
    type(pullback).__name__,
    "->",
    pullback(ones),
)

# the value, and the linear map t -> J t at x
y, push = jax.linearize(wobble, x)
print("linearize: value", y, "and a", type(push).__name__, "->", push(ones))
print(jax.make_jaxpr(push)(ones))
