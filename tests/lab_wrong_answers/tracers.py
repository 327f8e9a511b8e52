"""The tracers lab (docs/labs/tracers.ipynb): its wrong answers, its other right
answers, the words its checks must say, and how its generated wrong answers are made."""

from __future__ import annotations

from ._table import PREDICTION, Generated, Reads, Right, Wrong, not_applicable, wrong

LAB = "tracers"

# The wrong answers each read found passing, by read (the package's READS says which).
READS: Reads = {
    "REVIEWED": {
        3: [
            wrong(
                "closes over an unrelated array too, moved_to constants",
                "skips-technique",
                """
                _g = jnp.ones(3)


                def standardize_args(x, m, s):
                    return (x - m) / s * _g


                moved_to = "constants"
                """,
            ),
            wrong(
                "closes over a scale array, moved_to constants",
                "skips-technique",
                """
                _scale = jnp.array([1.0, 1.0, 1.0])


                def standardize_args(x, mu, sigma):
                    return _scale * (x - mu) / sigma


                moved_to = "constants"
                """,
            ),
        ],
    },
}

# Further wrong answers of each kind, for each exercise.
OTHERS: dict[int, list[Wrong]] = {
    1: [
        wrong(
            "zeros",
            "constant",
            """
                def standardize(x):
                    return jnp.zeros_like(x)
                """,
        ),
        wrong(
            "its own statistics of x",
            "skips-technique",
            """
                def standardize(x):
                    return (x - x.mean(axis=0)) / x.std(axis=0)
                """,
        ),
        wrong(
            "divides by the first sigma",
            "uniform-only",
            """
                def standardize(x):
                    return (x - mu) / sigma[0]
                """,
        ),
    ],
    2: [
        wrong(
            "no constants, no broadcasts",
            "constant",
            "predicted_constants = 0\npredicted_broadcasts = 0\n",
        ),
        wrong(
            "constants, but no broadcasts",
            "skips-technique",
            "predicted_constants = 2\npredicted_broadcasts = 0\n",
        ),
        not_applicable("uniform-only", PREDICTION),
    ],
    3: [
        wrong(
            "the globals, not its arguments",
            "skips-technique",
            """
                def standardize_args(x, m, s):
                    return (x - mu) / sigma


                moved_to = "constants"
                """,
        ),
        wrong(
            "right function, constants",
            "constant",
            """
                def standardize_args(x, mu, sigma):
                    return (x - mu) / sigma


                moved_to = "constants"
                """,
        ),
        wrong(
            "sigma's mean",
            "uniform-only",
            """
                def standardize_args(x, mu, sigma):
                    return (x - mu) / sigma.mean()


                moved_to = "inputs"
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
