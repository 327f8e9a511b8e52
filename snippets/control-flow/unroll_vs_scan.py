import time
from collections import defaultdict

import jax
import jax.numpy as jnp

# lax: JAX's lower-level primitives
from jax import lax

from bookexec.facts import claim, record  # hidden

W = jnp.eye(8) * 0.5  # a small recurrent weight matrix
h0 = jnp.ones(8)


def cell(h):
    return jnp.tanh(W @ h + 1.0)


def python_for(h, n):
    for _ in range(n):  # n is static: this loop runs while tracing
        h = cell(h)
    return h


def with_scan(h, n):
    h, _ = lax.scan(lambda h, _: (cell(h), None), h, length=n)
    return h


# The first compile in a fresh process also pays one-time set-up costs.
# Compile each version once, at a length the table does not measure, and
# throw the result away.
for fn in (python_for, with_scan):
    jax.jit(fn, static_argnums=1).trace(h0, 5).lower().compile()

NS = (10, 100, 300)
eqns, trace_runs, compile_runs = {}, defaultdict(list), defaultdict(list)
for name, fn in (("for", python_for), ("scan", with_scan)):
    jitted = jax.jit(fn, static_argnums=1)
    # scan compiles are short: take more of them
    for _ in range(2 if name == "for" else 5):
        # the lengths in turns, so that a busy moment slows them alike
        for n in NS:
            jax.clear_caches()  # or every run after the first is a cache hit
            start = time.perf_counter()
            # trace: run the Python, record the jaxpr
            traced = jitted.trace(h0, n)
            traced_at = time.perf_counter()
            # lower to StableHLO and compile it with XLA
            traced.lower().compile()
            compile_runs[name, n].append(time.perf_counter() - traced_at)
            trace_runs[name, n].append(traced_at - start)
            eqns[name, n] = len(traced.jaxpr.eqns)
# the fastest of each
t_trace = {key: min(runs) for key, runs in trace_runs.items()}
t_compile = {key: min(runs) for key, runs in compile_runs.items()}
# hidden: begin
for name in ("for", "scan"):
    for n in NS:
        record(f"eqns_{name}_{n}", eqns[name, n])
    for n in NS:
        t_trace[name, n] = record(
            f"trace_{name}_{n}", t_trace[name, n], kind="timing"
        )
    for n in NS:
        t_compile[name, n] = record(
            f"compile_{name}_{n}", t_compile[name, n], kind="timing"
        )
# hidden: end
for n in NS:
    for name in ("for", "scan"):
        line = f"N={n:<4} {name:<5} {eqns[name, n]:>4} eqns"
        line += f"   trace {t_trace[name, n] * 1e3:.1f} ms"
        print(f"{line}   compile {t_compile[name, n] * 1e3:,.0f} ms")

per_step = eqns["for", 10] // 10
record("eqns_per_step", per_step)  # hidden
print(f"the unrolled loop adds {per_step} equations per step")

speedup = t_compile["for", 300] / t_compile["scan", 300]
trace_growth = t_trace["for", 300] / t_trace["for", 10]
unrolled_growth = t_compile["for", 300] / t_compile["for", 10]
scan_growth = t_compile["scan", 300] / t_compile["scan", 10]
# hidden: begin
speedup = record("compile_speedup_300", speedup, kind="ratio")
claim(
    "compile_speedup_300",
    ">=",
    10,
    says="at N = 300 scan compiles at least 10 times faster than the unrolled loop",
)
claim(
    "compile_for_300",
    ">",
    "compile_for_10",
    says="the unrolled compile is far slower at N = 300 than at N = 10",
)
trace_growth = record("trace_growth_for", trace_growth, kind="ratio")
claim(
    "trace_growth_for",
    ">=",
    2,
    says="tracing the unrolled loop grows with N",
)
scan_growth = record("compile_growth_scan", scan_growth, kind="ratio")
unrolled_growth = record("compile_growth_for", unrolled_growth, kind="ratio")
# Scan compiles take a tenth of a second: under load they vary by several
# times, so the claim compares the two growths rather than holding scan's to
# a fixed bound.
claim(
    "compile_growth_for",
    ">",
    "compile_growth_scan",
    says="the unrolled compile grows with N far more than the scan compile",
)
# hidden: end
print(
    f"at N=300, scan compiles {speedup:.3g} times faster than the unrolled "
    "loop"
)
print(
    f"from N=10 to N=300, tracing the unrolled loop got {trace_growth:.3g} "
    "times slower"
)
print(
    f"compiling the unrolled loop grew by a factor of {unrolled_growth:.3g}"
)
print(
    "and compiling the scan version changed by a factor of "
    f"{scan_growth:.3g}"
)
