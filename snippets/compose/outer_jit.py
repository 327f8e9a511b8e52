# bump comes from the block above
import jax

from bookexec.facts import record  # hidden

both = jax.jit(jax.grad(jax.jit(bump)))  # an outer jit around the two halves
calls = both.lower(0.5).as_text().count(" = call @")
hlo = both.lower(0.5).compile().as_text()
fusions = hlo.count(" fusion(")
print("calls in the lowered program:", calls)
print("fusions in the compiled program:", fusions)
# the fused computation, without the source locations XLA notes
fused = hlo[hlo.index("%fused_computation") :]
for line in fused[: fused.index("\n}") + 2].splitlines():
    print(line.split(", metadata=")[0])
record("calls", calls)  # hidden
record("fusions", fusions)  # hidden
