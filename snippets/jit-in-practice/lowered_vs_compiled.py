import re

import jax
import jax.numpy as jnp

from bookexec.facts import record  # hidden


def softsign_sum(x):
    return jnp.sum(x / (1.0 + jnp.abs(x)))


lowered = jax.jit(softsign_sum).lower(jnp.ones(8))
stablehlo = lowered.as_text()  # what JAX hands to XLA
compiled = lowered.compile()
optimised = compiled.as_text()  # what XLA made of it
print(stablehlo)
# the top-level computation XLA will run
entry = optimised.split("ENTRY")[1].strip()
# without the source locations
print(re.sub(r", metadata=\{[^}]*\}", "", entry))
print("StableHLO operations:", stablehlo.count(" = stablehlo."))
print("fusions XLA made:", optimised.count(" fusion("))
# XLA's own estimate for the optimised program
costs = compiled.cost_analysis()
print("XLA's estimate:", int(costs["flops"]), "flops,", end=" ")
print(int(costs["bytes accessed"]), "bytes read or written")
# hidden: begin
record("stablehlo_ops", stablehlo.count(" = stablehlo."))
record("fusions", optimised.count(" fusion("))
record("flops", int(costs["flops"]))
record("bytes", int(costs["bytes accessed"]))
# hidden: end
