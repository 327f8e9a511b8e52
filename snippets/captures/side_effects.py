import jax
import jax.numpy as jnp

from bookexec.facts import record  # hidden

body_runs = 0  # a global counter
shapes_seen = []  # a list the body appends to


@jax.jit
def total(x):
    global body_runs
    body_runs += 1
    shapes_seen.append(x.shape)
    print("print inside total, run", body_runs)
    return jnp.sum(x)


# five calls, one type
results = [total(jnp.full(4, k, dtype=jnp.float32)) for k in range(5)]
print("results:    ", [r.item() for r in results])
# the recorded program, from the cache
print(total.trace(jnp.zeros(4)).jaxpr)
print("body_runs:  ", body_runs)
record("body_runs", body_runs)  # hidden
print("shapes_seen:", shapes_seen)
record("list_length", len(shapes_seen))  # hidden
