import jax
import jax.numpy as jnp


def wobble(x):
    return jnp.sin(x) * x


x = jnp.array([0.5, 1.0, 2.0])
ones = jnp.ones(3)

y, pullback = jax.vjp(wobble, x)  # the value, and a function from cotangents to cotangents
print("vjp:       value", y, "and a", type(pullback).__name__, "->", pullback(ones))

y, push = jax.linearize(wobble, x)  # the value, and the linear map t -> J t at x
print("linearize: value", y, "and a", type(push).__name__, "->", push(ones))
print(jax.make_jaxpr(push)(ones))
