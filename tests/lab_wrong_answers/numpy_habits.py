"""The numpy-habits lab (docs/labs/numpy-habits.ipynb): its wrong answers, its other right
answers, the words its checks must say, and how its generated wrong answers are made."""

from __future__ import annotations

from ._table import Generated, Reads, Right, Wrong, generated, wrong

LAB = "numpy-habits"

# The wrong answers each read found passing, by read (the package's READS says which).
READS: Reads = {
    "REVIEWED": {
        4: [
            wrong(
                "checkified, not jitted",
                "skips-technique",
                """
                from jax.experimental import checkify


                def read(data, i):
                    return data[i]


                checked_read = checkify.checkify(read, errors=checkify.index_checks)
                """,
            ),
            wrong(
                "checkified inside a plain function, not jitted",
                "skips-technique",
                """
                from jax.experimental import checkify


                def checked_read(data, i):
                    checked = checkify.checkify(lambda d, j: d[j], errors=checkify.index_checks)
                    return checked(data, i)
                """,
            ),
            wrong(
                "a hand-written check against five elements, upper bound only",
                "skips-technique",
                """
                from jax.experimental import checkify


                def read(data, i):
                    return data[i]


                def _read_checked(data, i):
                    checkify.check(i < 5, "index {i} is out of bounds", i=i)
                    return read(data, i)


                checked_read = jax.jit(checkify.checkify(_read_checked))
                """,
            ),
            wrong(
                "a hand-written check against five elements, both bounds",
                "skips-technique",
                """
                from jax.experimental import checkify


                def read(data, i):
                    return data[i]


                def _read_checked(data, i):
                    checkify.check((i >= -5) & (i < 5), "index {i} is out of bounds", i=i)
                    return read(data, i)


                checked_read = jax.jit(checkify.checkify(_read_checked))
                """,
            ),
        ],
    },
    "THIRD_READ_C": {
        4: [
            wrong(
                "a hand-written bounds check, off by one at each end",
                "skips-technique",
                """
                from jax.experimental import checkify


                def read(data, i):
                    n = data.shape[0]
                    checkify.check((i <= n) & (i >= -n - 1), "index {i} is out of bounds", i=i)
                    return data[i]


                checked_read = jax.jit(checkify.checkify(read))
                """,
            ),
            wrong(
                "index_checks, but reads data[abs(i)]",
                "skips-technique",
                """
                from jax.experimental import checkify


                def read(data, i):
                    return data[jnp.abs(i)]


                checked_read = jax.jit(checkify.checkify(read, errors=checkify.index_checks))
                """,
            ),
        ],
    },
    "CONFIRMATION_READ_FG": {
        3: [
            wrong(
                "donated, but the result has an extra leading axis, shape (1, 4)",
                "uniform-only",
                """
                double_in_place = jax.jit(lambda a: jnp.stack([2 * a]), donate_argnums=0)
                """,
            ),
            wrong(
                "donated, twice the input cast to float16",
                "uniform-only",
                """
                double_in_place = jax.jit(lambda a: (2 * a).astype(jnp.float16), donate_argnums=0)
                """,
            ),
        ],
    },
}

# Further wrong answers of each kind, for each exercise.
OTHERS: dict[int, list[Wrong]] = {
    # Exercise 1 was a prediction (an exception's name) until issue 51 made it a function; each
    # old wrong guess is kept as the function that makes the same mistake.
    1: [
        wrong(
            "nothing raised",
            "constant",
            """
            def jit_error(f, x):
                return "nothing"
            """,
        ),
        wrong(
            "a bool conversion",
            "skips-technique",
            """
            def jit_error(f, x):
                return "TracerBoolConversionError"
            """,
        ),
        wrong(
            "the error of the mask, whatever the function",
            "uniform-only",
            """
            def jit_error(f, x):
                try:
                    jax.jit(positive_mean_numpy)(x)
                except Exception as error:
                    return type(error).__name__
                return "nothing"
            """,
        ),
    ],
    2: [
        wrong(
            "the mean of the check's two vectors, 4.0",
            "constant",
            """
                def positive_mean(x):
                    return jnp.float32(4.0) + 0 * x.sum()
                """,
        ),
        wrong(
            "where, then the mean over every entry",
            "skips-technique",
            """
                def positive_mean(x):
                    return jnp.where(x > 0, x, 0.0).mean()
                """,
        ),
        wrong(
            "divides by a fixed count of three",
            "uniform-only",
            """
                def positive_mean(x):
                    return jnp.where(x > 0, x, 0.0).sum() / 3
                """,
        ),
    ],
    3: [
        wrong(
            "returns the check's answer",
            "constant",
            """
                double_in_place = jax.jit(lambda a: jnp.arange(4.0) * 2, donate_argnums=0)
                """,
        ),
        wrong(
            "no donation",
            "skips-technique",
            """
                double_in_place = jax.jit(lambda a: 2 * a)
                """,
        ),
        wrong(
            "a + arange: right on the check's input",
            "uniform-only",
            """
                double_in_place = jax.jit(lambda a: a + jnp.arange(4.0), donate_argnums=0)
                """,
        ),
    ],
    4: [
        wrong(
            "a constant read",
            "constant",
            """
                from jax.experimental import checkify

                checked_read = jax.jit(
                    checkify.checkify(lambda d, i: jnp.float32(20.0), errors=checkify.index_checks)
                )
                """,
        ),
        wrong(
            "checkify without index checks",
            "skips-technique",
            """
                from jax.experimental import checkify


                def read(data, i):
                    return data[i]


                checked_read = jax.jit(checkify.checkify(read))
                """,
        ),
        wrong(
            "i * 10: right on the check's data only",
            "uniform-only",
            """
                from jax.experimental import checkify

                checked_read = jax.jit(
                    checkify.checkify(lambda d, i: i * 10.0, errors=checkify.index_checks)
                )
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
        "jit_error",
        mentioned=("(positive_mean_numpy, x)",),
        swaps=(
            ("type(error).__name__", "type(error).__mro__[1].__name__"),
            ("jax.jit(f)(x)", "f(x)"),
        ),
    ),
    2: generated(
        "positive_mean",
        mentioned=("(x,)",),
        swaps=(("positive = x > 0", "positive = x >= 0"), ("/ positive.sum()", "/ x.size")),
    ),
    3: generated(
        "double_in_place",
        mentioned=("(jnp.arange(4.0),)",),
        swaps=(("donate_argnums=0", "donate_argnums=()"), ("return 2 * a", "return a * a")),
    ),
    4: generated(
        "checked_read",
        mentioned=("(jnp.arange(5.0), 7)",),
        swaps=(
            ("errors=checkify.index_checks", "errors=checkify.nan_checks"),
            ("    return data[i]", "    return data[i - 1]"),
        ),
    ),
}
