import jax
import jax.numpy as jnp
from jax import lax

from bookexec.facts import record  # hidden

steps = iter(range(1, 11))  # the numbers 1 to 10, one at a time
total = lax.fori_loop(0, 10, lambda i, acc: acc + next(steps), 0)
print("fori_loop over next(steps):", int(total))
record("loop_total", int(total))  # hidden
# reading what is left empties the iterator: read it once
left = len(list(steps))
print("left in the iterator:      ", left)
record("left", left)  # hidden
print("what was meant:            ", sum(range(1, 11)))
record("meant", sum(range(1, 11)))  # hidden

feed = iter(range(1, 11))


@jax.jit
def add_next(x):
    return x + next(feed)  # runs once, while tracing


print(
    "three jitted calls:",
    [add_next(jnp.float32(0)).item() for _ in range(3)],
)
print("next in the iterator:", next(feed))

values = jnp.arange(1, 11)  # the fix: an array, indexed by the loop counter
print(
    "fori_loop over an array:   ",
    lax.fori_loop(0, 10, lambda i, acc: acc + values[i], 0),
)
