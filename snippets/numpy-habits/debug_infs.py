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


@jax.jit
def safe_log(x):  # log(-1.0) is a nan, which the where discards
    return jnp.where(x > 0, jnp.log(x), 0.0)


with jax.debug_nans(True):
    print("where drops a nan:", safe_log(jnp.array([-1.0, 2.0])))
with jax.debug_nans(True), jax.debug_infs(True):
    softmax(x)
