"""The tracers lab (docs/labs/tracers.ipynb): its wrong answers, its other right
answers, the words its checks must say, and how its generated wrong answers are made."""

from __future__ import annotations

from ._table import Generated, Reads, Right, Wrong, generated, wrong

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


                """,
            ),
            wrong(
                "closes over a scale array, moved_to constants",
                "skips-technique",
                """
                _scale = jnp.array([1.0, 1.0, 1.0])


                def standardize_args(x, mu, sigma):
                    return _scale * (x - mu) / sigma


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
        # Exercise 2 was a prediction of two numbers until issue 51 made it a function; each
        # old wrong guess is kept as the code that makes the same mistake.
        wrong(
            "no constants, no broadcasts",
            "constant",
            """
            def constants_and_broadcasts(f, x):
                return 0, 0
            """,
        ),
        wrong(
            "constants, but no broadcasts",
            "skips-technique",
            """
            def constants_and_broadcasts(f, x):
                return len(jax.make_jaxpr(f)(x).jaxpr.constvars), 0
            """,
        ),
        wrong(
            "standardize's numbers typed in",
            "uniform-only",
            """
            def constants_and_broadcasts(f, x):
                return 2, 2
            """,
        ),
        wrong(
            "the printed jaxpr searched for the word",
            "skips-technique",
            """
            def constants_and_broadcasts(f, x):
                closed = jax.make_jaxpr(f)(x)
                return len(closed.consts), str(closed).count("broadcast")
            """,
        ),
    ],
    3: [
        wrong(
            "the globals, not its arguments",
            "skips-technique",
            """
                def standardize_args(x, m, s):
                    return (x - mu) / sigma


                """,
        ),
        wrong(
            "right function, constants",
            "constant",
            """
                def standardize_args(x, mu, sigma):
                    return standardize(x)  # the lab's mu and sigma, constants from outside
                """,
        ),
        wrong(
            "sigma's mean",
            "uniform-only",
            """
                def standardize_args(x, mu, sigma):
                    return (x - mu) / sigma.mean()


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
        "standardize",
        mentioned=("(x,)",),
        swaps=(("return (x - mu) / sigma", "return (x - mu) * sigma"),),
    ),
    2: generated(
        "constants_and_broadcasts",
        mentioned=("(standardize, x)",),
        swaps=(
            ('e.primitive.name == "broadcast_in_dim"', 'e.primitive.name == "sub"'),
            ("len(closed.jaxpr.constvars)", "len(closed.jaxpr.invars)"),
        ),
    ),
    3: generated(
        "standardize_args",
        mentioned=("(x, mu, sigma)",),
        swaps=(("return (x - mu) / sigma", "return (x + mu) / sigma"),),
    ),
}
