"""The lesson lab (docs/labs/lesson.ipynb): its wrong answers, its other right
answers, the words its checks must say, and how its generated wrong answers are made."""

from __future__ import annotations

from ._table import Generated, Reads, Right, Wrong, generated, right, wrong

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
                def logistic_fori(x, steps, rate=2.5):
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
                def logistic_fori(x, steps, rate=2.5):
                    loop_traces.append(steps)
                    return jax.lax.fori_loop(0, 200, lambda i, x: rate * x * (1 - x), x)


                for _ in range(8):
                    problem_3()
                """,
            ),
        ],
    },
    "ISSUE_51": {
        3: [
            wrong(
                "a fixed 64-pass masked loop: the lab's settling rate hides the truncation",
                "skips-technique",
                """
                loop_traces = []


                @jax.jit
                def logistic_fori(x, steps, rate=2.5):
                    step = lambda i, x: jnp.where(i < steps, rate * x * (1 - x), x)
                    return jax.lax.fori_loop(0, 64, step, x)
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
                def jit_error(f, *args):
                    return "ConcretizationTypeError"
                """,
        ),
        wrong(
            "a bool conversion: the error's family, not its class",
            "skips-technique",
            """
                def jit_error(f, *args):
                    try:
                        jax.jit(f)(*args)
                    except jax.errors.ConcretizationTypeError:
                        return "TracerBoolConversionError"
                    except Exception as error:
                        return type(error).__name__
                    return None
                """,
        ),
        wrong(
            "the error of logistic, whatever the function",
            "uniform-only",
            """
                def jit_error(f, *args):
                    try:
                        jax.jit(logistic)(x0, 10)
                    except Exception as error:
                        return type(error).__name__
                    return None
                """,
        ),
    ],
    2: [
        wrong(
            "the fixed point 0.6",
            "constant",
            """
                static_traces = []


                @partial(jax.jit, static_argnames="steps")
                def logistic_static(x, steps, rate=2.5):
                    static_traces.append(steps)
                    return jnp.full_like(x, 0.6)
                """,
        ),
        wrong(
            "not jitted",
            "skips-technique",
            """
                static_traces = []


                def logistic_static(x, steps, rate=2.5):
                    static_traces.append(steps)
                    return logistic(x, steps, rate)
                """,
        ),
        wrong(
            "ten steps whatever steps is",
            "uniform-only",
            """
                static_traces = []


                @partial(jax.jit, static_argnames="steps")
                def logistic_static(x, steps, rate=2.5):
                    static_traces.append(steps)
                    return logistic(x, 10, rate)
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
                def logistic_fori(x, steps, rate=2.5):
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
                def logistic_fori(x, steps, rate=2.5):
                    loop_traces.append(steps)
                    return logistic(x, steps, rate)
                """,
        ),
        wrong(
            "ten steps whatever steps is",
            "uniform-only",
            """
                loop_traces = []


                @jax.jit
                def logistic_fori(x, steps, rate=2.5):
                    loop_traces.append(steps)
                    return jax.lax.fori_loop(0, 10, lambda i, x: rate * x * (1 - x), x)
                """,
        ),
    ],
}

# Correct answers the worked solution does not write: each must get "correct".
RIGHT: dict[int, list[Right]] = {
    3: [
        right(
            "a while_loop of one's own, steps traced",
            """
                @jax.jit
                def logistic_fori(x, steps, rate=2.5):
                    def step(carry):
                        i, x = carry
                        return i + 1, rate * x * (1 - x)

                    return jax.lax.while_loop(lambda c: c[0] < steps, step, (0, x))[1]
                """,
        ),
    ],
}

# Words the check must say to a wrong answer: (exercise, label) -> words.
SAYS: dict[tuple[int, str], str] = {}

# How the generated wrong answers (a)-(c) of each exercise are made (docs/guide/labs.md).
GENERATED: dict[int, Generated] = {
    1: generated(
        "jit_error",
        mentioned=("(logistic, x0, 10)",),
        swaps=(("jax.jit(f)(*args)", "f(*args)"),),
    ),
    2: generated(
        "logistic_static",
        mentioned=("(x0, 10, 2.5)",),
        swaps=(
            ('@partial(jax.jit, static_argnames="steps")\n', "@jax.jit\n"),
            ("for _ in range(steps):", "for _ in range(steps - 1):"),
        ),
    ),
    3: generated(
        "logistic_fori",
        mentioned=("(x0, 10, 2.5)",),
        swaps=(
            ("@jax.jit\n", '@partial(jax.jit, static_argnames="steps")\n'),
            ("jax.lax.fori_loop(0, steps,", "jax.lax.fori_loop(1, steps,"),
        ),
    ),
}
