import jax
import jax.numpy as jnp

from bookexec.facts import record  # hidden


def relax(state):
    return 0.5 * state + 1.0


keep = jax.jit(relax)
# the caller promises never to read `state` again
donate = jax.jit(relax, donate_argnums=0)

state = jnp.ones((1000, 1000))  # 4 MB of float32
home = state.unsafe_buffer_pointer()  # the address of its memory
kept = keep(state)
print(
    "without donation: result in the same memory:",
    kept.unsafe_buffer_pointer() == home,
)
print("                  state deleted:", state.is_deleted())
given = donate(state)
print(
    "with donation:    result in the same memory:",
    given.unsafe_buffer_pointer() == home,
)
print("                  state deleted:", state.is_deleted())
record("reused", str(given.unsafe_buffer_pointer() == home))  # hidden
record("deleted", str(state.is_deleted()))  # hidden
try:
    state.sum()
except RuntimeError as error:
    print("reading state:", type(error).__name__, "-", error)
