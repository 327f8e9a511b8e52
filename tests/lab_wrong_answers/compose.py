"""The compose lab (docs/labs/compose.ipynb): its wrong answers, its other right
answers, the words its checks must say, and how its generated wrong answers are made."""

from __future__ import annotations

from ._table import Generated, Reads, Right, Wrong, generated, wrong

LAB = "compose"

# The wrong answers each read found passing, by read (the package's READS says which).
READS: Reads = {
    "ISSUE_51": {
        2: [
            wrong(
                "the largest magnitude, not the largest value",
                "uniform-only",
                """
                def track_fixed(x, best):
                    return x * 2, jnp.maximum(best, jnp.abs(x).max())
                """,
            ),
        ],
    },
}

# Further wrong answers of each kind, for each exercise.
OTHERS: dict[int, list[Wrong]] = {
    # Exercise 1 was a prediction (a list of names) until issue 51 made it a function; each old
    # wrong guess is kept as the code that makes the same mistake.
    1: [
        wrong(
            "the outer vmap reaches f",
            "constant",
            """
            def seen_under(wrap, x):
                return ["BatchTracer", "LinearizeTracer", "BatchTracer", "DynamicJaxprTracer"]
            """,
        ),
        wrong(
            "grad as a JVPTracer",
            "skips-technique",
            """
            def seen_under(wrap, x):
                seen = []

                def f(v):
                    seen.append(layers(v))
                    return jnp.sum(jnp.sin(v) * v)

                wrap(f)(x)
                return ["JVPTracer" if name == "LinearizeTracer" else name for name in seen[0]]
            """,
        ),
        wrong(
            "innermost first",
            "skips-technique",
            """
            def seen_under(wrap, x):
                seen = []

                def f(v):
                    seen.append(layers(v))
                    return jnp.sum(jnp.sin(v) * v)

                wrap(f)(x)
                return seen[0][::-1]
            """,
        ),
        wrong(
            "the stack of the text only",
            "uniform-only",
            """
            def seen_under(wrap, x):
                return ["LinearizeTracer", "BatchTracer", "DynamicJaxprTracer"]
            """,
        ),
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
GENERATED: dict[int, Generated] = {
    1: generated(
        "seen_under",
        mentioned=("(lambda f: jax.vmap(jax.jit(jax.vmap(jax.grad(f)))), jnp.ones((2, 3)))",),
        swaps=(
            ("seen.append(layers(v))", "seen.append(layers(v)[::-1])"),
            ("return seen[0]", "return seen[0][1:]"),
        ),
    ),
    2: generated(
        "track_fixed",
        mentioned=("(jnp.ones(5), jnp.float32(-jnp.inf))",),
        swaps=(("jnp.maximum(best", "jnp.minimum(best"), ("x * 2", "x + 2")),
    ),
    3: generated(
        "scaled_known",
        mentioned=("(1.0,)",),
        swaps=(
            ("with jax.ensure_compile_time_eval():", "if True:"),
            ("return x * table", "return x + table"),
        ),
    ),
}
