# H0, python_for, with_scan and results come from the block above
import jax

from bookexec.facts import claim, figure, record, timing

LENGTHS = (10, 30, 100, 200, 300)


def compile_time(name, fn, n):
    traced = jax.jit(fn, static_argnums=1).trace(h0, n)

    def lower_and_compile():
        jax.clear_caches()  # or every compile after the first is a cache hit
        traced.lower().compile()

    # Two runs of the unrolled loop are enough to see its trend, and keep the block short.
    return timing(f"compile_{name}_{n}", lower_and_compile, repeat=2 if name == "for" else 3)


for n in LENGTHS:
    for name, fn in (("for", python_for), ("scan", with_scan)):
        if (name, n) in results:  # measured above: record it again, so this block checks it
            t = record(f"compile_{name}_{n}", float(results[name, n][1]), kind="timing")
        else:
            t = compile_time(name, fn, n)
        print(f"N={n:<4} {name:<5} compile {t}")

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
    "compile_for_200", ">", "compile_scan_200", says="at N = 200 the unrolled loop compiles slower"
)
