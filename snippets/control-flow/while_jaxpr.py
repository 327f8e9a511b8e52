import jax
import jax.numpy as jnp

# lax: JAX's lower-level primitives
from jax import lax

from bookexec.facts import record  # hidden


def doublings(x):
    """Double x until it reaches 100; the number of steps depends on x."""

    def keep_going(state):
        value, _ = state
        return value < 100.0

    def double(state):
        value, steps = state
        return value * 2, steps + 1

    return lax.while_loop(keep_going, double, (x, 0))


fast = jax.jit(doublings)
for start in (3.0, 40.0):
    value, steps = fast(jnp.float32(start))
    record(f"steps_from_{int(start)}", int(steps))  # hidden
    print(f"from {start}: {steps} doublings, reaching {value}")
print(jax.make_jaxpr(doublings)(jnp.float32(3.0)))
