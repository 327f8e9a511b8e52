import jax
import jax.numpy as jnp


# the power function again, jitted with n static
def power_scaled(x, n):
    y = x
    for _ in range(n - 1):
        y = y * x
    return y * n


power_jit = jax.jit(power_scaled, static_argnums=1)
x3 = jnp.ones(3)
x4 = jnp.ones(4)
ints = jnp.ones(4, dtype=jnp.int32)

jax.config.update("jax_explain_cache_misses", True)
print("-- first call")
power_jit(x3, 3)
print("-- same types again")
power_jit(x3, 3)
print("-- new static value")
power_jit(x3, 4)
print("-- new shape")
power_jit(x4, 3)
print("-- new dtype")
power_jit(ints, 3)
print("-- Python float")
power_jit(2.0, 3)
print("-- the same call, with n passed by keyword")
power_jit(x3, n=3)
print("-- same types, under a context manager")
with jax.default_matmul_precision("highest"):
    power_jit(x3, 3)
jax.config.update("jax_explain_cache_misses", False)
