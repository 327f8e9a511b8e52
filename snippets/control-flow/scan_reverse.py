import jax
import jax.numpy as jnp

# lax: JAX's lower-level primitives
from jax import lax

from bookexec.facts import record  # hidden

rewards = jnp.array([1.0, 0.0, 0.0, 2.0, 1.0])


def discounted(later, r):
    # this step's reward, plus half of everything after it
    total = r + 0.5 * later
    return total, total


_, returns = lax.scan(discounted, 0.0, rewards, reverse=True)
print("reverse=True:     ", returns)
_, flipped = lax.scan(discounted, 0.0, rewards[::-1])
print("flip, scan, flip: ", flipped[::-1])
print(
    jax.make_jaxpr(lambda r: lax.scan(discounted, 0.0, r, reverse=True))(
        rewards
    )
)
record("same", str(bool(jnp.array_equal(returns, flipped[::-1]))))  # hidden
