import jax
from jax import lax
from jax.extend.core import primitives

# what runs when sin_p is applied to ordinary arrays
impl = primitives.sin_p.impl
print("sin_p's eager implementation:", impl.func.__name__, impl.args)

# forget programs compiled earlier, so that sin's is compiled anew
jax.clear_caches()
with jax.log_compiles():  # JAX logs each compilation as a warning
    print("lax.sin(1.0) =", lax.sin(1.0))
