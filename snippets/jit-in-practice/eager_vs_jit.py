import time

import jax
import jax.numpy as jnp

from bookexec.facts import claim, record, timings  # hidden


def fastest(fns, repeat=5):
    """Seconds for the fastest call of each function: a warm-up call each,
    then calls in turns."""
    for fn in fns.values():
        # warm-up: a jitted function traces and compiles here
        jax.block_until_ready(fn())
    times = {name: [] for name in fns}
    for _ in range(repeat):
        # in turns, so that a busy moment slows them alike
        for name, fn in fns.items():
            start = time.perf_counter()
            # stop the clock only once the result is ready
            jax.block_until_ready(fn())
            times[name].append(time.perf_counter() - start)
    return {name: min(runs) for name, runs in times.items()}


def leaky_squash(x):
    for _ in range(12):
        x = 0.9 * x + 0.1 * x * x
        x = jnp.where(x > 0, x, 0.5 * x)
    return x


x = jnp.linspace(-3.0, 3.0, 2_000)
squash_jit = jax.jit(leaky_squash)

t = fastest(
    {"eager": lambda: leaky_squash(x), "jitted": lambda: squash_jit(x)},
    repeat=30,
)
# hidden: begin
record("eqns", len(jax.make_jaxpr(leaky_squash)(x).eqns))
record("backend", jax.default_backend())
t = timings(
    {"eager": lambda: leaky_squash(x), "jitted": lambda: squash_jit(x)},
    repeat=30,
)
# hidden: end
t_eager, t_jit = t["eager"], t["jitted"]
speedup = t_eager / t_jit
speedup = record("speedup", speedup, kind="ratio")  # hidden
# hidden: begin
claim(
    "speedup", ">=", 4, says="jit is at least 4 times faster than eager here"
)
# hidden: end
print(
    f"eager {t_eager * 1e3:.2f} ms, jitted {t_jit * 1e6:.0f} µs: "
    f"{speedup:.3g} times faster"
)
