from time import perf_counter

import jax
import jax.numpy as jnp

from bookexec.facts import claim, record, timing  # hidden

# leaky_squash is the function of the first block
x = jnp.linspace(-3.0, 3.0, 2_000)
staged = jax.jit(leaky_squash)
samples = {"trace": [], "lower": [], "compile": []}
for _ in range(5):
    # each round is a real first call: nothing traced or compiled yet
    jax.clear_caches()
    start = perf_counter()
    # stage 1: run the Python on tracers, giving the jaxpr
    traced = staged.trace(x)
    lowered_at = perf_counter()
    # stage 2: translate the jaxpr into StableHLO
    lowered = traced.lower()
    compiled_at = perf_counter()
    # stage 3: XLA turns StableHLO into an executable
    compiled = lowered.compile()
    done = perf_counter()
    samples["trace"].append(lowered_at - start)
    samples["lower"].append(compiled_at - lowered_at)
    samples["compile"].append(done - compiled_at)
# the fastest of each
stage = {name: min(times) for name, times in samples.items()}
# hidden: begin
stage = {
    name: record(name, took, kind="timing") for name, took in stage.items()
}
# hidden: end
# the first block's helper
t_run = fastest({"run": lambda: compiled(x)}, repeat=50)["run"]
t_run = timing("run", lambda: compiled(x), repeat=50)  # hidden
first = sum(stage.values()) / t_run
# hidden: begin
first = record("first_over_run", first, kind="ratio")
claim(
    "first_over_run",
    ">=",
    20,
    says="the three stages cost at least 20 runs of the result",
)
# A measurement, not a claim: how compiling compares with tracing depends on
# the CPU, so the prose states no bound on it.
record("compile_over_trace", stage["compile"] / stage["trace"], kind="ratio")
# hidden: end
for name, took in stage.items():
    print(f"{name:8} {took * 1e3:.1f} ms")
print(f"run      {t_run * 1e6:.1f} µs")
print(
    f"trace, lower and compile together took {first:,.0f} times as long as "
    "one run"
)
