import jax
import jax.numpy as jnp

from bookexec.facts import record  # hidden

# a mutable array: a Ref, not an Array
counts = jax.new_ref(jnp.zeros(3, jnp.int32))
traces = []  # one entry per trace of tally


@jax.jit
def tally(i):
    # the type only: a tracer must not outlive its trace
    traces.append(jax.typeof(i))
    counts[i] += 1  # read the element, add one, write it back


for i in [0, 2, 2, 1, 2]:
    tally(i)
print(counts)
print("traces:", len(traces))
snapshot = counts[...]  # the whole value, read as an Array
print(repr(snapshot))
# hidden: begin
record("counts", str(snapshot.tolist()))
record("traces", len(traces))
# hidden: end
print(jax.make_jaxpr(tally)(0))
