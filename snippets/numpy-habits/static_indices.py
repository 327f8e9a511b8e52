import jax
import jax.numpy as jnp

x = jnp.arange(5.0)
# a Python int: the index is known while tracing
last = jax.jit(lambda v: v[10])
print("by default:", last(x))
jax.config.update("jax_check_static_indices", True)
try:
    jax.jit(lambda v: v[10])(x)
except IndexError as err:
    print("checked: IndexError:", err)
print("a traced index is not checked:", jax.jit(lambda v, i: v[i])(x, 10))
jax.config.update("jax_check_static_indices", False)  # back to the default
