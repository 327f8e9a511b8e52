import jax
import jax.numpy as jnp
import numpy as np

# The same pairs of dtypes, promoted by NumPy and by JAX (x64 off, the default).
pairs = [("int32", "float16"), ("int8", "uint8"), ("int32", "float32"), ("float16", "bfloat16")]
for a, b in pairs:
    in_numpy = np.promote_types(a, b) if "bfloat16" not in (a, b) else "(no bfloat16)"
    print(f"{a:>8} + {b:<8}  NumPy: {in_numpy!s:14} JAX: {jnp.promote_types(a, b)}")

half = jnp.ones(3, dtype=jnp.float16)
print("float16 * 2.0:", (half * 2.0).dtype, "| float16 * float32:", (half * jnp.float32(2)).dtype)
print("types: Python 2.0", jax.typeof(jnp.asarray(2.0)), "| float32(2)", jax.typeof(jnp.float32(2)))
print(jax.make_jaxpr(lambda h: h * 2.0)(half))
print(jax.make_jaxpr(lambda i: i * 1.5)(jnp.int32(2)))
weak = jax.make_jaxpr(lambda x: x + 1)(2.0)  # a Python float argument: weakly typed
print(weak, "| its input aval:", weak.in_avals[0])
