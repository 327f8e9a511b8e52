# Measure, python_for, with_scan and results come from the block above
from bookexec.facts import claim, figure, record

LENGTHS = (10, 30, 100, 200, 300)
for n in LENGTHS:
    for name, fn in (("for", python_for), ("scan", with_scan)):
        if (name, n) in results:  # measured above: record it again, so this block checks it
            record(f"compile_{name}_{n}", float(results[name, n][1]), kind="timing")
        else:
            results[name, n] = measure(name, fn, n)

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
