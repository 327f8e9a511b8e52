import jax
import jax.numpy as jnp

from bookexec.facts import record  # hidden


@jax.jit
def histogram(idx):
    bins = jax.new_ref(jnp.zeros(3, jnp.int32))  # a Ref made inside the jit
    # adds 1 at every index, once per occurrence of a repeated index
    jax.ref.addupdate(bins, idx, jnp.ones_like(idx))
    return jax.ref.freeze(bins)  # its final value, an Array: allowed


print(repr(histogram(jnp.array([0, 2, 2]))))


@jax.jit
def short_histogram(idx):
    bins = jax.new_ref(jnp.zeros(3, jnp.int32))
    # reads the bins at idx, adds 1, writes back: the last write wins
    bins[idx] += 1
    return jax.ref.freeze(bins)


short = short_histogram(jnp.array([0, 2, 2]))
record("short", str(short.tolist()))  # hidden
print(repr(short))


@jax.jit
def leaky_histogram(idx):
    bins = jax.new_ref(jnp.zeros(3, jnp.int32))
    jax.ref.addupdate(bins, idx, jnp.ones_like(idx))
    return bins  # the Ref itself: not allowed


leaky_histogram(jnp.array([0, 2, 2]))
