"""The compose lab (docs/labs/compose.ipynb): its wrong answers, its other right
answers, the words its checks must say, and how its generated wrong answers are made."""

from __future__ import annotations

from ._table import PREDICTION, Generated, Reads, Right, Wrong, not_applicable, wrong

LAB = "compose"

# The wrong answers each read found passing, by read (the package's READS says which).
READS: Reads = {}

# Further wrong answers of each kind, for each exercise.
OTHERS: dict[int, list[Wrong]] = {
    1: [
        wrong(
            "the outer vmap reaches f",
            "constant",
            """
                predicted = ["BatchTracer", "LinearizeTracer", "BatchTracer", "DynamicJaxprTracer"]
                """,
        ),
        wrong(
            "grad as a JVPTracer",
            "skips-technique",
            """
                predicted = ["JVPTracer", "BatchTracer", "DynamicJaxprTracer"]
                """,
        ),
        not_applicable("uniform-only", PREDICTION),
    ],
    2: [
        wrong(
            "the check's expected values",
            "constant",
            """
                def track_fixed(x, best):
                    return jnp.array([6.0, 4.0]), jnp.float32(5.0)
                """,
        ),
        wrong(
            "still appends to history",
            "skips-technique",
            """
                def track_fixed(x, best):
                    history.append(x.max())
                    return x * 2, jnp.maximum(best, x.max())
                """,
        ),
        wrong(
            "the last element for the maximum",
            "uniform-only",
            """
                def track_fixed(x, best):
                    return x * 2, jnp.maximum(best, x[-1])
                """,
        ),
    ],
    3: [
        wrong(
            "the check's values for 3.0",
            "constant",
            """
                def scaled_known(x):
                    return jnp.array([3.0, 6.0, 12.0, 24.0, 48.0])
                """,
        ),
        wrong(
            "a cumprod: no iota, and no constant either",
            "skips-technique",
            """
                def scaled_known(x):
                    return x * jnp.cumprod(jnp.full(5, 2.0)) / 2
                """,
        ),
        wrong(
            "abs(x): right for positive x only",
            "uniform-only",
            """
                def scaled_known(x):
                    with jax.ensure_compile_time_eval():
                        table = 2.0 ** jnp.arange(5)
                    return jnp.abs(x) * table
                """,
        ),
    ],
}

# Correct answers the worked solution does not write: each must get "correct".
RIGHT: dict[int, list[Right]] = {}

# Words the check must say to a wrong answer: (exercise, label) -> words.
SAYS: dict[tuple[int, str], str] = {}

# How the generated wrong answers (a)-(c) of each exercise are made (docs/guide/labs.md).
GENERATED: dict[int, Generated] = {}
