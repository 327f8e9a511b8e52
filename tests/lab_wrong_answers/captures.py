"""The captures lab (docs/labs/captures.ipynb): its wrong answers, its other right
answers, the words its checks must say, and how its generated wrong answers are made."""

from __future__ import annotations

from ._table import Generated, Reads, Right, Wrong, generated, wrong

LAB = "captures"

# The wrong answers each read found passing, by read (the package's READS says which).
READS: Reads = {
    "REVIEWED": {
        3: [
            wrong(
                "n static, called with 3 and 5 as the solution cell does",
                "skips-technique",
                """
                n_traces = []


                def _times(x, n):
                    n_traces.append(n)
                    return x * n


                times_n = jax.jit(_times, static_argnums=1)
                print(times_n(jnp.ones(3), 3), times_n(jnp.ones(3), 5))
                """,
            ),
            wrong(
                "n static by name, called with 3 and 5 first",
                "skips-technique",
                """
                from functools import partial

                n_traces = []


                @partial(jax.jit, static_argnames="n")
                def times_n(x, n):
                    n_traces.append(n)
                    return x * n


                print(times_n(jnp.ones(3), 3), times_n(jnp.ones(3), 5))
                """,
            ),
        ],
    },
    "THIRD_READ_C": {
        1: [
            wrong(
                "no append in the body: the count is faked outside",
                "skips-technique",
                """
                traces = []


                @jax.jit
                def times_steps(x):
                    return x * steps


                traces.append("one")
                """,
            ),
        ],
        3: [
            wrong(
                "no append in the body: appended outside",
                "skips-technique",
                """
                n_traces = []


                @jax.jit
                def times_n(x, n):
                    return x * n


                n_traces.append("one")
                """,
            ),
        ],
    },
    "ISSUE_51": {
        1: [
            wrong(
                "appends the tracer itself: a leaked tracer per trace",
                "skips-technique",
                """
                traces = []


                @jax.jit
                def times_steps(x):
                    traces.append(x)
                    return x * steps
                """,
            ),
        ],
    },
}

# Further wrong answers of each kind, for each exercise.
OTHERS: dict[int, list[Wrong]] = {
    1: [
        wrong(
            "multiplies by 3, the value steps has now",
            "constant",
            """
                traces = []


                @jax.jit
                def times_steps(x):
                    traces.append(x.shape)
                    return x * 3
                """,
        ),
        wrong(
            "not jitted",
            "skips-technique",
            """
                traces = []


                def times_steps(x):
                    traces.append(x.shape)
                    return x * steps
                """,
        ),
        wrong(
            "ignores x: right on an all-sevens x",
            "uniform-only",
            """
                traces = []


                @jax.jit
                def times_steps(x):
                    traces.append(x.shape)
                    return jnp.full_like(x, 7.0) * steps
                """,
        ),
    ],
    2: [
        wrong(
            "every call sees the new steps and traces",
            "constant",
            """
                def replay(calls):
                    results, counts = [], []
                    for x, new_steps in calls:
                        results.append(x * new_steps)
                        counts.append(len(counts) + 1)
                    return results, counts
                """,
        ),
        wrong(
            "values as if the cache saw steps",
            "skips-technique",
            """
                def replay(calls):
                    steps = None
                    traces = []

                    @jax.jit
                    def times_steps(x):
                        traces.append(x.shape)
                        return x * steps

                    results, counts = [], []
                    for x, new_steps in calls:
                        steps = new_steps
                        times_steps(x)
                        results.append(x * new_steps)
                        counts.append(len(traces))
                    return results, counts
                """,
        ),
        wrong(
            "the first entry times steps: right on a uniform x",
            "uniform-only",
            """
                def replay(calls):
                    steps = None
                    traces = []

                    @jax.jit
                    def times_steps(x):
                        traces.append(x.shape)
                        return jnp.full_like(x, x[0]) * steps

                    results, counts = [], []
                    for x, new_steps in calls:
                        steps = new_steps
                        results.append(times_steps(x))
                        counts.append(len(traces))
                    return results, counts
                """,
        ),
    ],
    3: [
        wrong(
            "ignores x: n times a vector of ones",
            "constant",
            """
                n_traces = []


                @jax.jit
                def times_n(x, n):
                    n_traces.append(1)
                    return jnp.ones(3) * n
                """,
        ),
        wrong(
            "n static: a trace per value",
            "skips-technique",
            """
                n_traces = []


                def _times(x, n):
                    n_traces.append(n)
                    return x * n


                times_n = jax.jit(_times, static_argnums=1)
                """,
        ),
        wrong(
            "x ** 0 * n: right on all-ones x",
            "uniform-only",
            """
                n_traces = []


                @jax.jit
                def times_n(x, n):
                    n_traces.append(1)
                    return x**0 * n
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
        "times_steps",
        mentioned=("(jnp.ones(3),)",),
        swaps=(
            ("return x * steps", "return x * 3"),
            ("traces.append(x.shape)", "traces.append(x)"),
        ),
    ),
    2: generated(
        "replay",
        mentioned=("([(jnp.ones(3), 3), (jnp.ones(3) * 2.0, 5), (jnp.ones(4), 5)],)",),
        swaps=(
            ("    @jax.jit\n", ""),
            ("counts.append(len(traces))", "counts.append(len(set(traces)))"),
        ),
    ),
    3: generated(
        "times_n",
        mentioned=("(jnp.ones(3), 3)", "(jnp.ones(3), 5)"),
        swaps=(
            ("return x * n", "return x + n"),
            ("@jax.jit\n", "@jax.tree_util.Partial(jax.jit, static_argnums=1)\n"),
        ),
    ),
}
