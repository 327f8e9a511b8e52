"""The retracing lab (docs/labs/retracing.ipynb): its wrong answers, its other right
answers, the words its checks must say, and how its generated wrong answers are made."""

from __future__ import annotations

from ._table import (
    Generated,
    Reads,
    Right,
    Wrong,
    generated,
    right,
    wrong,
)

LAB = "retracing"

# The wrong answers each read found passing, by read (the package's READS says which).
READS: Reads = {
    "ISSUE_36": {
        3: [
            wrong(
                "no padding, never calls affine",
                "skips-technique",
                """
                def padded_affine(x):
                    return 3 * x + 1
                """,
            ),
        ],
    },
    "REVIEWED": {
        3: [
            wrong(
                "padded_affine jitted itself: a trace and a compile per length",
                "skips-technique",
                """
                @jax.jit
                def padded_affine(x):
                    n = x.shape[0]
                    return affine(jnp.pad(x, (0, 8 - n)))[:n]
                """,
            ),
        ],
    },
    "CONFIRMATION_READ_E": {
        2: [
            wrong(
                "the right numbers with a leading axis, shape (1, 4)",
                "skips-technique",
                """
                @jax.jit
                def affine_pair(pair):
                    return (3 * (pair[0] + pair[1]) + 1)[None]


                def retraces(a, b):
                    leaves_a, tree_a = jax.tree.flatten(a)
                    leaves_b, tree_b = jax.tree.flatten(b)
                    types = [jax.typeof(x) for x in leaves_a], [jax.typeof(x) for x in leaves_b]
                    return tree_a != tree_b or types[0] != types[1]
                """,
            ),
            wrong(
                "the right numbers stacked twice, shape (2, 4)",
                "skips-technique",
                """
                @jax.jit
                def affine_pair(pair):
                    out = 3 * (pair[0] + pair[1]) + 1
                    return jnp.stack([out, out])


                def retraces(a, b):
                    leaves_a, tree_a = jax.tree.flatten(a)
                    leaves_b, tree_b = jax.tree.flatten(b)
                    types = [jax.typeof(x) for x in leaves_a], [jax.typeof(x) for x in leaves_b]
                    return tree_a != tree_b or types[0] != types[1]
                """,
            ),
        ],
    },
    "CONFIRMATION_READ_H": {
        1: [
            wrong(
                "the right counts written as strings",
                "constant",
                """
                def new_traces(f, args):
                    seen = []

                    def counted(x):
                        seen.append(jax.typeof(x))
                        return f(x)

                    jitted = jax.jit(counted)
                    added = []
                    for x in args:
                        before = len(seen)
                        jitted(x)
                        added.append(str(len(seen) - before))
                    return added
                """,
            ),
        ],
        3: [
            wrong(
                "calls affine on the padded vector, then returns its own 3 * x + 1",
                "skips-technique",
                """
                def padded_affine(x):
                    n = x.shape[0]
                    affine(jnp.pad(x, (0, 8 - n)))
                    return 3 * x + 1
                """,
            ),
        ],
    },
    "ISSUE_51": {
        3: [
            wrong(
                "the padding jitted afresh on every call, affine called on its result",
                "skips-technique",
                """
                def padded_affine(x):
                    n = x.shape[0]
                    padded = jax.jit(lambda v: jnp.pad(v, (0, 8 - n)))(x)
                    return affine(padded)[:n]
                """,
            ),
            wrong(
                "the padding jitted afresh on every call: a trace and a compile per call",
                "skips-technique",
                """
                def padded_affine(x):
                    n = x.shape[0]
                    return jax.jit(lambda v: affine(jnp.pad(v, (0, 8 - n)))[:n])(x)
                """,
            ),
        ],
    },
}

# Further wrong answers of each kind, for each exercise.
OTHERS: dict[int, list[Wrong]] = {
    1: [
        wrong(
            "every call traces",
            "constant",
            """
                def new_traces(f, args):
                    return [1] * len(args)
                """,
        ),
        wrong(
            "a bool is weakly typed like an int",
            "skips-technique",
            """
                def new_traces(f, args):
                    seen, added = set(), []
                    for x in args:
                        if isinstance(x, (bool, int, float)):
                            key = "a weakly typed Python number"
                        else:
                            key = (jnp.shape(x), jnp.result_type(x))
                        added.append(0 if key in seen else 1)
                        seen.add(key)
                    return added
                """,
        ),
        wrong(
            "keyed by the first value as well as the type: right on all-ones arguments",
            "uniform-only",
            """
                def new_traces(f, args):
                    seen, added = set(), []
                    for x in args:
                        key = (str(jax.typeof(x)), float(jnp.ravel(jnp.asarray(x))[0]))
                        added.append(0 if key in seen else 1)
                        seen.add(key)
                    return added
                """,
        ),
    ],
    2: [
        wrong(
            "a list does not retrace",
            "constant",
            """
                @jax.jit
                def affine_pair(pair):
                    return 3 * (pair[0] + pair[1]) + 1


                def retraces(a, b):
                    types = [jax.typeof(x) for x in jax.tree.leaves(a)]
                    return types != [jax.typeof(x) for x in jax.tree.leaves(b)]
                """,
        ),
        wrong(
            "not jitted",
            "skips-technique",
            """
                def affine_pair(pair):
                    return 3 * (pair[0] + pair[1]) + 1


                def retraces(a, b):
                    leaves_a, tree_a = jax.tree.flatten(a)
                    leaves_b, tree_b = jax.tree.flatten(b)
                    types = [jax.typeof(x) for x in leaves_a], [jax.typeof(x) for x in leaves_b]
                    return tree_a != tree_b or types[0] != types[1]
                """,
        ),
        wrong(
            "retraces: always True",
            "constant",
            """
            @jax.jit
            def affine_pair(pair):
                return 3 * (pair[0] + pair[1]) + 1


            def retraces(a, b):
                return True
            """,
        ),
        wrong(
            "retraces: shapes only, no dtype or weak type",
            "skips-technique",
            """
            @jax.jit
            def affine_pair(pair):
                return 3 * (pair[0] + pair[1]) + 1


            def retraces(a, b):
                leaves_a, tree_a = jax.tree.flatten(a)
                leaves_b, tree_b = jax.tree.flatten(b)
                return tree_a != tree_b or [jnp.shape(x) for x in leaves_a] != [
                    jnp.shape(x) for x in leaves_b
                ]
            """,
        ),
        wrong(
            "retraces: new values trace again",
            "uniform-only",
            """
            @jax.jit
            def affine_pair(pair):
                return 3 * (pair[0] + pair[1]) + 1


            def retraces(a, b):
                leaves_a, tree_a = jax.tree.flatten(a)
                leaves_b, tree_b = jax.tree.flatten(b)
                return tree_a != tree_b or not all(
                    jnp.shape(x) == jnp.shape(y) and bool(jnp.all(x == y))
                    for x, y in zip(leaves_a, leaves_b)
                )
            """,
        ),
        wrong(
            "+ pair[0] for the 1: right when the first is ones",
            "uniform-only",
            """
                @jax.jit
                def affine_pair(pair):
                    return 3 * (pair[0] + pair[1]) + pair[0]


                def retraces(a, b):
                    leaves_a, tree_a = jax.tree.flatten(a)
                    leaves_b, tree_b = jax.tree.flatten(b)
                    types = [jax.typeof(x) for x in leaves_a], [jax.typeof(x) for x in leaves_b]
                    return tree_a != tree_b or types[0] != types[1]
                """,
        ),
    ],
    3: [
        wrong(
            "ones",
            "constant",
            """
                def padded_affine(x):
                    affine(jnp.zeros(8))
                    return jnp.ones_like(x)
                """,
        ),
        wrong(
            "pads in front: right on all-zeros x",
            "uniform-only",
            """
                def padded_affine(x):
                    n = x.shape[0]
                    return affine(jnp.pad(x, (8 - n, 0)))[:n]
                """,
        ),
        wrong(
            "a plain function around a jitted padding",
            "skips-technique",
            """
                @jax.jit
                def _padded(x):
                    n = x.shape[0]
                    return affine(jnp.pad(x, (0, 8 - n)))[:n]


                def padded_affine(x):
                    return _padded(x)
                """,
        ),
    ],
}

# Correct answers the worked solution does not write: each must get "correct".
RIGHT: dict[int, list[Right]] = {
    3: [
        # Issue 51: refused by the check that swapped affine where it looked for it.
        right(
            "affine reached through an alias",
            """
            f = affine


            def padded_affine(x):
                n = x.shape[0]
                return f(jnp.pad(x, (0, 8 - n)))[:n]
            """,
        ),
        right(
            "affine reached through a dict",
            """
            table = {"affine": affine}


            def padded_affine(x):
                n = x.shape[0]
                return table["affine"](jnp.pad(x, (0, 8 - n)))[:n]
            """,
        ),
        right(
            "affine bound as a default argument",
            """
                def padded_affine(x, fn=affine):
                    n = x.shape[0]
                    return fn(jnp.pad(x, (0, 8 - n)))[:n]
                """,
        ),
        right(
            "affine captured in a closure",
            """
                def padding_to(size, fn):
                    def padded(x):
                        n = x.shape[0]
                        return fn(jnp.pad(x, (0, size - n)))[:n]

                    return padded


                padded_affine = padding_to(8, affine)
                """,
        ),
        # Issue 37, third read: refused, "called affine 0 times".
        right(
            "affine bound by functools.partial",
            """
                import functools


                def _padded(x, fn):
                    n = x.shape[0]
                    return fn(jnp.pad(x, (0, 8 - n)))[:n]


                padded_affine = functools.partial(_padded, fn=affine)
                """,
        ),
    ],
}

# Words the check must say to a wrong answer: (exercise, label) -> words.
SAYS: dict[tuple[int, str], str] = {
    (1, "the right counts written as strings"): "is '1', a str: it should be a number",
}

# How the generated wrong answers (a)-(c) of each exercise are made (docs/guide/labs.md).
GENERATED: dict[int, Generated] = {
    1: generated(
        "new_traces",
        mentioned=(
            "(lambda x: 3 * x + 1, [jnp.ones(4), jnp.ones((2, 2)), jnp.ones((2, 2)).T, "
            "jnp.ones(4, jnp.float16), True])",
        ),
        swaps=(
            ("jitted = jax.jit(counted)", "jitted = counted"),
            ("        jitted(x)\n", "        jitted(jnp.asarray(x, jnp.float32))\n"),
        ),
    ),
    2: generated(
        "retraces",
        mentioned=("((jnp.ones(4), jnp.ones(4)), [jnp.ones(4), jnp.ones(4)])",),
        swaps=(
            ("    if tree_a != tree_b:\n        return True\n", ""),
            (
                "[jax.typeof(x) for x in leaves_a] != [\n"
                "        jax.typeof(x) for x in leaves_b\n"
                "    ]",
                "[jnp.shape(x) for x in leaves_a] != [jnp.shape(x) for x in leaves_b]",
            ),
        ),
    ),
    3: generated(
        "padded_affine",
        mentioned=("(jnp.ones(3),)", "(jnp.ones(5),)", "(jnp.ones(8),)"),
        swaps=(
            (
                "affine(jnp.pad(x, (0, size - n)))[:n]",
                "jax.jit(lambda v: affine(jnp.pad(v, (0, size - n)))[:n])(x)",
            ),
            ("affine(jnp.pad(x, (0, size - n)))[:n]", "affine(jnp.pad(x, (size - n, 0)))[:n]"),
        ),
    ),
}
