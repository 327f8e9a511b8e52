import jax
import jax.numpy as jnp


# the same function as in the previous block
def power_scaled(x, n):
    y = x
    for _ in range(n - 1):  # a Python loop: needs n as a real int
        y = y * x
    return y * n


x = jnp.ones(3)
print("n = 3:")
print(jax.make_jaxpr(power_scaled, static_argnums=1)(x, 3))
print("n = 1:")
print(jax.make_jaxpr(power_scaled, static_argnums=1)(x, 1))
