# wobble and x come from the block above
import jax
import jax.numpy as jnp

from bookexec.facts import record  # hidden

SPELLED = ["no", "one", "two", "three", "four", "five", "six"]  # hidden

traces = []


@jax.jit
def backward_counted(pullback, cotangent):
    traces.append(1)  # runs only while tracing
    return pullback(cotangent)


for step in range(3):
    # eager: a new program in its tree structure
    _, pullback = jax.vjp(wobble, x + step)
    backward_counted(pullback, jnp.ones(3))
print("pullbacks from eager jax.vjp, traces of backward:", len(traces))
record("eager_traces", SPELLED[len(traces)])  # hidden

forward = jax.jit(lambda x: jax.vjp(wobble, x))
traces.clear()
for step in range(3):
    # made inside one traced program: the same structure
    _, pullback = forward(x + step)
    backward_counted(pullback, jnp.ones(3))
print("pullbacks from a jitted forward, traces of backward:", len(traces))
record("jitted_traces", SPELLED[len(traces)])  # hidden

# both jitted, the backward traced once
fwd, bwd = jax.fwd_and_bwd(wobble, argnums=0)
y, residuals = fwd(x)
print("fwd_and_bwd:", bwd(residuals, jnp.ones(3)))
