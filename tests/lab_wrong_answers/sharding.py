"""The sharding lab (docs/labs/sharding.ipynb): its wrong answers, its other right
answers, the words its checks must say, and how its generated wrong answers are made."""

from __future__ import annotations

from ._table import PREDICTION, Generated, Reads, Right, Wrong, not_applicable, right, wrong

LAB = "sharding"

# The wrong answers each read found passing, by read (the package's READS says which).
READS: Reads = {
    "ISSUE_36": {
        3: [
            wrong(
                "a + a: right on all-ones inputs",
                "uniform-only",
                """
                def add_resharded(a, b):
                    return a + a
                """,
            ),
        ],
        4: [
            wrong(
                "a constant array of ones",
                "constant",
                """
                def as_groups(x):
                    return jnp.ones((6, 3, 4))
                """,
            ),
        ],
    },
    "REVIEWED": {
        3: [
            wrong(
                "a + a + 100: ignores b, right when b is a + 100",
                "skips-technique",
                """
                def add_resharded(a, b):
                    return a + a + 100.0
                """,
            ),
            wrong(
                "2 * a + 100: ignores b, right when b is a + 100",
                "constant",
                """
                def add_resharded(a, b):
                    return 2 * a + 100.0
                """,
            ),
            wrong(
                "b copied to the host, no reshard",
                "skips-technique",
                """
                import numpy as np


                def add_resharded(a, b):
                    return a + np.asarray(b)
                """,
            ),
        ],
    },
    "THIRD_READ": {
        3: [
            wrong(
                "b resharded to a placement typed in, right only for the check's a",
                "skips-technique",
                """
                from jax.sharding import reshard


                def add_resharded(a, b):
                    return a + reshard(b, NamedSharding(mesh, Spec("data", "model")))
                """,
            ),
        ],
    },
    "CONFIRMATION_READ": {
        3: [
            wrong(
                "replicates a and b, adds, reshards the sum back",
                "skips-technique",
                """
                from jax.sharding import reshard


                def add_resharded(a, b):
                    full = NamedSharding(mesh, Spec())
                    return reshard(reshard(a, full) + reshard(b, full), jax.typeof(a).sharding)
                """,
            ),
            wrong(
                "moves a to b's placement, adds, moves the sum back",
                "skips-technique",
                """
                from jax.sharding import reshard


                def add_resharded(a, b):
                    moved = reshard(a, jax.typeof(b).sharding) + b
                    return reshard(moved, jax.typeof(a).sharding)
                """,
            ),
            wrong(
                "one reshard of b, to replicated: every device gathers all of b",
                "skips-technique",
                """
                from jax.sharding import reshard


                def add_resharded(a, b):
                    return a + reshard(b, NamedSharding(mesh, Spec()))
                """,
            ),
        ],
    },
}

# Further wrong answers of each kind, for each exercise.
OTHERS: dict[int, list[Wrong]] = {
    1: [
        wrong("the whole axis wins", "constant", 'predicted_spec = Spec("data", None)\n'),
        wrong("rows dropped", "skips-technique", 'predicted_spec = Spec(None, "model")\n'),
        not_applicable("uniform-only", PREDICTION),
    ],
    2: [
        wrong("feats' placement wins", "constant", 'predicted_outcome = ("data", "model")\n'),
        wrong("a ValueError", "skips-technique", 'predicted_outcome = "ValueError"\n'),
        not_applicable("uniform-only", PREDICTION),
    ],
    3: [
        wrong(
            "twos, placed like a",
            "constant",
            """
                def add_resharded(a, b):
                    return jax.sharding.reshard(jnp.full(a.shape, 2.0), jax.typeof(a).sharding)
                """,
        ),
        wrong(
            "no reshard",
            "skips-technique",
            """
                def add_resharded(a, b):
                    return a + b
                """,
        ),
    ],
    4: [
        wrong(
            "a plain reshape",
            "skips-technique",
            """
                def as_groups(x):
                    return jnp.reshape(x, (6, 3, 4))
                """,
        ),
        wrong(
            "regrouped as 4 by 3, then transposed",
            "uniform-only",
            """
                def as_groups(x):
                    r = jnp.reshape(x, (6, 4, 3), out_sharding=Spec("data", None, None))
                    return jnp.transpose(r, (0, 2, 1))
                """,
        ),
    ],
}

# Correct answers the worked solution does not write: each must get "correct".
RIGHT: dict[int, list[Right]] = {
    3: [
        right(
            "the reshard inside a jit of its own",
            """
                @jax.jit
                def add_resharded(a, b):
                    return a + jax.sharding.reshard(b, jax.typeof(a).sharding)
                """,
        ),
    ],
}

# Words the check must say to a wrong answer: (exercise, label) -> words.
SAYS: dict[tuple[int, str], str] = {}

# How the generated wrong answers (a)-(c) of each exercise are made (docs/guide/labs.md).
GENERATED: dict[int, Generated] = {}
