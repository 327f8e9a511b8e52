import jax
import jax.numpy as jnp
import numpy as np

half = jnp.ones(3, dtype=jnp.float16)
print(
    "float16 * 2.0:",
    (half * 2.0).dtype,
    "| float16 * float32:",
    (half * jnp.float32(2)).dtype,
)
print(
    "types: Python 2.0",
    jax.typeof(jnp.asarray(2.0)),
    "| float32(2)",
    jax.typeof(jnp.float32(2)),
)
# the scalar moves the kind to float, not the width
scaled = jnp.ones(3, jnp.int32) * 1.5
print(
    "int32 * 1.5:",
    jax.typeof(scaled),
    "| then * float16:",
    (scaled * half).dtype,
)
print("NumPy int32 * 1.5:", (np.ones(3, np.int32) * 1.5).dtype)
try:
    # NumPy 2: the Python int must fit the array's dtype
    np.ones(3, np.int8) + 1000
except OverflowError as err:
    print("NumPy int8 + 1000: OverflowError:", err)
# a Python float is not checked: it overflows
with np.errstate(over="ignore"):
    print("NumPy float16 * 1e10:", np.ones(3, np.float16) * 1e10)
# converted to int8, wrapping around
print("JAX int8 + 1000:", jnp.ones(3, jnp.int8) + 1000)
try:
    # JAX checks a Python int only against int32
    jnp.ones(3, jnp.int8) + 2**31
except OverflowError as err:
    print("JAX int8 + 2**31: OverflowError:", err)
print(jax.make_jaxpr(lambda h: h * 2.0)(half))
print(jax.make_jaxpr(lambda i: i * 1.5)(jnp.int32(2)))
# a Python float argument: weakly typed
weak = jax.make_jaxpr(lambda x: x + 1)(2.0)
print(weak, "| its input aval:", weak.in_avals[0])
