import time

import jax
import jax.numpy as jnp

from bookexec.facts import claim, record, timings  # hidden


def logistic(pop, steps=40):
    # The logistic map, iterated: each pass is three tiny elementwise
    # operations.
    for _ in range(steps):
        pop = 3.7 * pop * (1.0 - pop)
    return pop


def fastest(fn, repeat=7):
    """Seconds for the fastest of `repeat` calls, each clocked until its
    result is ready."""
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        # JAX returns before the work is done: wait for it
        fn().block_until_ready()
        runs.append(time.perf_counter() - start)
    # other programs only ever add time: the fastest run is the cost
    return min(runs)


start = jnp.linspace(0.05, 0.95, 2_000)
compiled = jax.jit(logistic)
compiled(start).block_until_ready()  # warm-up: this call traces and compiles

print(
    "operations in the recording:", len(jax.make_jaxpr(logistic)(start).eqns)
)
eager = fastest(lambda: logistic(start))
jitted = fastest(lambda: compiled(start))
# hidden: begin
record("eqns", len(jax.make_jaxpr(logistic)(start).eqns))
t = timings(
    {"eager": lambda: logistic(start), "jitted": lambda: compiled(start)},
    repeat=7,
)
eager, jitted = t["eager"], t["jitted"]
# hidden: end
ratio = eager / jitted
# hidden: begin
ratio = record("ratio", ratio, kind="ratio")
claim(
    "ratio", ">=", 5, says="the jitted function is at least 5 times faster"
)
# hidden: end
print(
    f"eager {eager * 1e3:.2f} ms, jitted {jitted * 1e6:.0f} µs: "
    f"{ratio:.3g} times faster"
)
