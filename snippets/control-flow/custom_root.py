import jax
import jax.numpy as jnp
from jax import lax


def newton(f, x):  # a while_loop solver of f(x) = 0
    def moving(state):
        x, before = state
        return jnp.abs(x - before) > 1e-6

    def step(state):
        x = state[0]
        return x - f(x) / jax.grad(f)(x), x

    return lax.while_loop(moving, step, step((x, x)))[0]


def sqrt_root(a):  # the root of x * x - a, by Newton's (Babylonian) steps
    return lax.custom_root(
        lambda x: x * x - a,
        jnp.float32(1.0),
        solve=newton,
        tangent_solve=lambda g, y: y / g(1.0),  # g is linear: scalar case
    )


a = jnp.array([2.0, 100.0, 1e4])
print("roots:", jax.vmap(sqrt_root)(a))
print("grad: ", jax.vmap(jax.grad(sqrt_root))(a))
print("1/(2 sqrt a):", 0.5 / jnp.sqrt(a))
