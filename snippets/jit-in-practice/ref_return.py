import jax
import jax.numpy as jnp


@jax.jit
def histogram(idx):
    bins = jax.new_ref(jnp.zeros(3, jnp.int32))  # a Ref made inside the jit
    for i in idx:
        bins[i] += 1
    return jax.ref.freeze(bins)  # its final value, an Array: allowed


print(repr(histogram(jnp.array([0, 2, 2]))))


@jax.jit
def leaky_histogram(idx):
    bins = jax.new_ref(jnp.zeros(3, jnp.int32))
    for i in idx:
        bins[i] += 1
    return bins  # the Ref itself: not allowed


leaky_histogram(jnp.array([0, 2, 2]))
