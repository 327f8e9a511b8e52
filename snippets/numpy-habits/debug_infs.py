import jax
import jax.numpy as jnp


@jax.jit
def softmax(x):
    e = jnp.exp(x)
    return e / e.sum()


x = jnp.array([1.0, 100.0])  # exp(100.0) is past float32's largest value
print("without the flags:", softmax(x))
# checks outputs for inf; this one holds a nan and no inf
with jax.debug_infs(True):
    print("with debug_infs:  ", softmax(x))
with jax.debug_nans(True), jax.debug_infs(True):
    softmax(x)
