import jax
import jax.numpy as jnp

from bookexec.facts import claim, record  # hidden


def gelu_tanh(x):
    inner = 0.7978845608 * (x + 0.044715 * x**3)
    return 0.5 * x * (1.0 + jnp.tanh(inner))


x = jnp.ones((256, 512))
traced = jax.jit(gelu_tanh).trace(x)  # stage 1: the jaxpr
lowered = traced.lower()  # stage 2: a StableHLO module
compiled = lowered.compile()  # stage 3: XLA's optimised executable

print(traced.jaxpr)
ops = lowered.as_text().count(" = stablehlo.")
record("stablehlo_ops", ops)  # hidden
entry = compiled.as_text().split("ENTRY")[1]  # the top-level computation
kernels = entry.count(" fusion(")
record("kernels", kernels)  # hidden
# hidden: begin
claim("kernels", "<=", 1, says="XLA fuses the whole chain into one kernel")
# hidden: end
flops = int(compiled.cost_analysis()["flops"])
record("flops", flops)  # hidden
per_element = flops // x.size
record("flops_per_element", per_element)  # hidden
record("jaxpr_eqns", len(traced.jaxpr.eqns))  # hidden
print(f"StableHLO operations: {ops}")
print(f"fused kernels in the executable: {kernels}")
print(f"flops (XLA's estimate): {flops}, or {per_element} per element")
