"""The jit-in-practice lab (docs/labs/jit-in-practice.ipynb): its wrong answers, its other right
answers, the words its checks must say, and how its generated wrong answers are made."""

from __future__ import annotations

from ._table import PREDICTION, Generated, Reads, Right, Wrong, not_applicable, right, wrong

LAB = "jit-in-practice"

# The wrong answers each read found passing, by read (the package's READS says which).
READS: Reads = {
    "ISSUE_36": {
        1: [
            wrong(
                "never calls f",
                "constant",
                """
                def time_it(f):
                    return 1.0
                """,
            ),
        ],
    },
    "REVIEWED": {
        # Issue 37, third read: the check set only upper bounds, so milliseconds passed.
        1: [
            wrong(
                "returns milliseconds, not seconds",
                "skips-technique",
                """
                def time_it(f):
                    start = time.perf_counter_ns()
                    jax.block_until_ready(f())
                    return (time.perf_counter_ns() - start) / 1e6
                """,
            ),
        ],
        2: [
            wrong(
                "traced for another shape, lowered and compiled apart from it",
                "skips-technique",
                """
                traced = squash_jit.trace(jnp.ones(7))
                lowered = jax.jit(leaky_squash).lower(x)
                compiled = lowered.compile()
                """,
            ),
            wrong(
                "traced for another shape, lowered from a second trace",
                "skips-technique",
                """
                traced = squash_jit.trace(jnp.ones(7))
                lowered = squash_jit.trace(x).lower()
                compiled = lowered.compile()
                """,
            ),
            # Issue 37: the check compared only compiled's numbers, so a Compiled of another
            # program that gives the same numbers passed.
            wrong(
                "compiled from a jit around squash_jit, not from lowered",
                "skips-technique",
                """
                traced = squash_jit.trace(x)
                lowered = traced.lower()
                compiled = jax.jit(lambda v: squash_jit(v)).lower(x).compile()
                """,
            ),
            wrong(
                "compiled from a jit of a lambda around leaky_squash, not from lowered",
                "skips-technique",
                """
                traced = squash_jit.trace(x)
                lowered = traced.lower()
                compiled = jax.jit(lambda v: leaky_squash(v)).trace(x).lower().compile()
                """,
            ),
        ],
    },
}

# Further wrong answers of each kind, for each exercise.
OTHERS: dict[int, list[Wrong]] = {
    1: [
        wrong(
            "no wait",
            "skips-technique",
            """
                def time_it(f):
                    start = time.perf_counter()
                    f()
                    return time.perf_counter() - start
                """,
        ),
        wrong(
            "waits only on a single array",
            "uniform-only",
            """
                def time_it(f):
                    start = time.perf_counter()
                    result = f()
                    if hasattr(result, "block_until_ready"):
                        result.block_until_ready()
                    return time.perf_counter() - start
                """,
        ),
        wrong(
            "starts the clock after the call, before the wait: misses the call's own time",
            "skips-technique",
            """
                def time_it(f):
                    result = f()
                    start = time.perf_counter()
                    jax.block_until_ready(result)
                    return time.perf_counter() - start
                """,
        ),
    ],
    2: [
        wrong(
            "the stages of another function",
            "constant",
            """
                traced = jax.jit(lambda v: v).trace(x)
                lowered = traced.lower()
                compiled = lowered.compile()
                """,
        ),
        wrong(
            "compiled is the jitted function",
            "skips-technique",
            """
                traced = squash_jit.trace(x)
                lowered = traced.lower()
                compiled = squash_jit
                """,
        ),
        wrong(
            "traced for a scalar",
            "uniform-only",
            """
                traced = squash_jit.trace(x[0])
                lowered = traced.lower()
                compiled = lowered.compile()
                """,
        ),
    ],
    3: [
        wrong("three and three", "constant", "predicted_same = 3\npredicted_lambda = 3\n"),
        wrong("one and one", "skips-technique", "predicted_same = 1\npredicted_lambda = 1\n"),
        not_applicable("uniform-only", PREDICTION),
    ],
}

# Correct answers the worked solution does not write: each must get "correct".
RIGHT: dict[int, list[Right]] = {
    1: [
        right(
            "waits on every leaf with jax.tree.map",
            """
                def time_it(f):
                    start = time.perf_counter()
                    result = f()
                    jax.tree.map(lambda leaf: leaf.block_until_ready(), result)
                    return time.perf_counter() - start
                """,
        ),
    ],
    2: [
        right(
            "each stage asked of squash_jit again: the same programs, from JAX's caches",
            """
                traced = squash_jit.trace(x)
                lowered = squash_jit.lower(x)
                compiled = squash_jit.lower(x).compile()
                """,
        ),
    ],
}

# Words the check must say to a wrong answer: (exercise, label) -> words.
SAYS: dict[tuple[int, str], str] = {}

# How the generated wrong answers (a)-(c) of each exercise are made (docs/guide/labs.md).
GENERATED: dict[int, Generated] = {}
