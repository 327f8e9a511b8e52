# h0, python_for, with_scan and t_compile come from the block above
import time

import jax

from bookexec.facts import claim, figure, record  # hidden

LENGTHS = (10, 30, 100, 200, 300)


def compile_time(fn, n, repeat):
    """The fastest of `repeat` lowerings and compilations of `fn` at this N,
    in seconds."""
    traced = jax.jit(fn, static_argnums=1).trace(h0, n)
    runs = []
    for _ in range(repeat):
        jax.clear_caches()  # or every compile after the first is a cache hit
        start = time.perf_counter()
        traced.lower().compile()
        runs.append(time.perf_counter() - start)
    return min(runs)


for n in LENGTHS:
    for name, fn in (("for", python_for), ("scan", with_scan)):
        # only the lengths the block above did not measure are timed here
        new = (name, n) not in t_compile
        if new:
            # Two runs of the unrolled loop are enough to see its trend, and
            # keep the block short.
            t_compile[name, n] = compile_time(
                fn, n, repeat=2 if name == "for" else 3
            )
        t = t_compile[name, n]
        t = record(f"compile_{name}_{n}", float(t), kind="timing")  # hidden
        if new:
            print(f"N={n:<4} {name:<5} compile {t:.2f} s")

# hidden: begin
figure(
    "compile_time",
    x=list(LENGTHS),
    series={
        "unrolled Python for": [f"compile_for_{n}" for n in LENGTHS],
        "lax.scan": [f"compile_scan_{n}" for n in LENGTHS],
    },
    xlabel="loop length N",
    ylabel="compile time (s)",
    alt="Line chart of compile time against loop length N: the unrolled loop's compile time "
    "climbs steeply with N while lax.scan's stays flat near zero.",
)
claim(
    "compile_for_200",
    ">",
    "compile_scan_200",
    says="at N = 200 the unrolled loop compiles slower",
)
# hidden: end
