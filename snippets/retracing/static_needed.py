import jax
import jax.numpy as jnp


# n sets how many multiplications the Python loop records
def power_scaled(x, n):
    y = x
    for _ in range(n - 1):
        y = y * x
    return y * n


jax.jit(power_scaled)(jnp.ones(3), 3)  # n is traced like x
