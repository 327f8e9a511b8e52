"""The sharding lab (docs/labs/sharding.ipynb): its wrong answers, its other right
answers, the words its checks must say, and how its generated wrong answers are made."""

from __future__ import annotations

from ._table import Generated, Reads, Right, Wrong, generated, right, wrong

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
    "ISSUE_51": {
        4: [
            wrong(
                "the lab's own values regrouped, x ignored: right only for the check's arange",
                "constant",
                """
                def as_groups(x):
                    return jnp.reshape(
                        jnp.arange(72.0), (6, 3, 4), out_sharding=Spec("data", None, None)
                    )
                """,
            ),
        ],
    },
}

# Further wrong answers of each kind, for each exercise.
OTHERS: dict[int, list[Wrong]] = {
    1: [
        wrong(
            "the whole axis wins",
            "constant",
            """
                def sum_spec(a, b):
                    return Spec("data", None)
                """,
        ),
        wrong(
            "rows dropped",
            "skips-technique",
            """
                def sum_spec(a, b):
                    return Spec(None, *jax.typeof(a).sharding.spec[1:])
                """,
        ),
        wrong(
            "a's placement: right where a splits every dimension b splits",
            "uniform-only",
            """
                def sum_spec(a, b):
                    return jax.typeof(a).sharding.spec
                """,
        ),
    ],
    2: [
        wrong(
            "feats' placement wins: never a clash",
            "constant",
            """
                def clashes(a, b):
                    return []
                """,
        ),
        wrong(
            "a ValueError: any refusal read as a clash on the columns",
            "skips-technique",
            """
                def clashes(a, b):
                    try:
                        jnp.add(a, b)
                    except ValueError:
                        return [1]
                    return []
                """,
        ),
        wrong(
            "every dimension both split, over the same axis or not",
            "uniform-only",
            """
                def clashes(a, b):
                    spec_a, spec_b = jax.typeof(a).sharding.spec, jax.typeof(b).sharding.spec
                    return [d for d, (x, y) in enumerate(zip(spec_a, spec_b)) if x and y]
                """,
        ),
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
GENERATED: dict[int, Generated] = {
    1: generated(
        "sum_spec",
        mentioned=("(feats, rows)",),
        swaps=(("x if x is not None else y", "x"),),
    ),
    2: generated(
        "clashes",
        mentioned=("(feats, cols)", "(feats, rows)"),
        swaps=(("None not in (x, y) and x != y", "x != y"),),
    ),
    3: generated(
        "add_resharded",
        mentioned=("(feats, cols)",),
        swaps=(("jax.typeof(a).sharding", "NamedSharding(mesh, Spec(None, None))"),),
    ),
    4: generated(
        "as_groups",
        mentioned=("(feats,)",),
        swaps=(
            ('Spec("data", None, None)', "Spec(None, None, None)"),
            ("(x.shape[0], 3, 4)", "(x.shape[0], 4, 3)"),
        ),
    ),
}
