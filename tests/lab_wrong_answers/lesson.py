"""The lesson lab (docs/labs/lesson.ipynb): its wrong answers, its other right
answers, the words its checks must say, and how its generated wrong answers are made."""

from __future__ import annotations

from ._table import PREDICTION, Generated, Reads, Right, Wrong, not_applicable, wrong

LAB = "lesson"

# The wrong answers each read found passing, by read (the package's READS says which).
READS: Reads = {
    "REVIEWED": {
        3: [
            wrong(
                "the fixed point 0.6, the check run until it passes",
                "constant",
                """
                loop_traces = []


                @jax.jit
                def logistic_fori(x, steps):
                    loop_traces.append(steps)
                    return jnp.full_like(x, 0.6)


                for _ in range(8):  # a reader who runs the check again and again
                    problem_3()
                """,
            ),
            wrong(
                "a fixed point from a long loop, whatever steps says, checked again and again",
                "skips-technique",
                """
                loop_traces = []


                @jax.jit
                def logistic_fori(x, steps):
                    loop_traces.append(steps)
                    return jax.lax.fori_loop(0, 200, lambda i, x: 2.5 * x * (1 - x), x)


                for _ in range(8):
                    problem_3()
                """,
            ),
        ],
    },
}

# Further wrong answers of each kind, for each exercise.
OTHERS: dict[int, list[Wrong]] = {
    1: [
        wrong(
            "a concretization error",
            "constant",
            """
                predicted_error = "ConcretizationTypeError"
                """,
        ),
        wrong(
            "a bool conversion",
            "skips-technique",
            """
                predicted_error = "TracerBoolConversionError"
                """,
        ),
        not_applicable("uniform-only", PREDICTION),
    ],
    2: [
        wrong(
            "the fixed point 0.6",
            "constant",
            """
                static_traces = []


                @partial(jax.jit, static_argnames="steps")
                def logistic_static(x, steps):
                    static_traces.append(steps)
                    return jnp.full_like(x, 0.6)
                """,
        ),
        wrong(
            "not jitted",
            "skips-technique",
            """
                static_traces = []


                def logistic_static(x, steps):
                    static_traces.append(steps)
                    return logistic(x, steps)
                """,
        ),
        wrong(
            "ten steps whatever steps is",
            "uniform-only",
            """
                static_traces = []


                @partial(jax.jit, static_argnames="steps")
                def logistic_static(x, steps):
                    static_traces.append(steps)
                    return logistic(x, 10)
                """,
        ),
    ],
    3: [
        wrong(
            "the fixed point 0.6",
            "constant",
            """
                loop_traces = []


                @jax.jit
                def logistic_fori(x, steps):
                    loop_traces.append(steps)
                    return jnp.full_like(x, 0.6)
                """,
        ),
        wrong(
            "steps static",
            "skips-technique",
            """
                loop_traces = []


                @partial(jax.jit, static_argnums=1)
                def logistic_fori(x, steps):
                    loop_traces.append(steps)
                    return logistic(x, steps)
                """,
        ),
        wrong(
            "ten steps whatever steps is",
            "uniform-only",
            """
                loop_traces = []


                @jax.jit
                def logistic_fori(x, steps):
                    loop_traces.append(steps)
                    return jax.lax.fori_loop(0, 10, lambda i, x: 2.5 * x * (1 - x), x)
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
