# bump comes from the block above
import jax

from bookexec.facts import record  # hidden

both = jax.jit(jax.grad(jax.jit(bump)))  # an outer jit around the two halves
calls = both.lower(0.5).as_text().count(" = call @")
hlo = both.lower(0.5).compile().as_text()
fusions = hlo.count(" fusion(")
print("calls in the lowered program:", calls)
print("calls in the compiled program:", hlo.count(" call("))
print("fusions in the compiled program:", fusions)
# the fused computation, without the source locations XLA notes (another
# backend may fuse nothing here)
start = hlo.find("%fused_computation")
fused = hlo[start:] if start >= 0 else ""
for line in fused[: fused.find("\n}") + 2].splitlines():
    print(line.split(", metadata=")[0])
record("calls", calls)  # hidden
record("fusions", fusions)  # hidden
