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

# fwd and bwd are both jitted; count the traces of a function of the
# residuals the way backward_counted does
fwd, bwd = jax.fwd_and_bwd(wobble, argnums=0)
traces.clear()


@jax.jit
def bwd_counted(residuals, cotangent):
    traces.append(1)  # runs only while tracing
    return bwd(residuals, cotangent)


for step in range(3):
    _, residuals = fwd(x + step)
    bwd_counted(residuals, jnp.ones(3))
print("residuals from jax.fwd_and_bwd, traces of backward:", len(traces))
record("fwd_and_bwd_traces", SPELLED[len(traces)])  # hidden
