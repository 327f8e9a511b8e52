import jax
import jax.numpy as jnp

# lax: JAX's lower-level primitives
from jax import lax

from bookexec.facts import record  # hidden

rewards = jnp.array([1.0, 0.0, 0.0, 2.0, 1.0])
start = jnp.float32(0.0)  # the carry starts in the type the loop computes in


def discounted(later, r):
    # this step's reward, plus half of everything after it
    total = r + 0.5 * later
    return total, total


def backwards(start, rewards):
    return lax.scan(discounted, start, rewards, reverse=True)


_, returns = backwards(start, rewards)
print("reverse=True:     ", returns)
_, flipped = lax.scan(discounted, start, rewards[::-1])
print("flip, scan, flip: ", flipped[::-1])
print(jax.make_jaxpr(backwards)(start, rewards))
record("same", str(bool(jnp.array_equal(returns, flipped[::-1]))))  # hidden
