"""The randomness lab (docs/labs/randomness.ipynb): its wrong answers, its other right
answers, the words its checks must say, and how its generated wrong answers are made."""

from __future__ import annotations

from ._table import Generated, Reads, Right, Wrong, generated, wrong

LAB = "randomness"

# The wrong answers each read found passing, by read (the package's READS says which).
READS: Reads = {
    "ISSUE_51": {
        3: [
            wrong(
                "a table of the check's keys computed up front",
                "constant",
                """
                import numpy as _np

                _table = {
                    int(_np.asarray(jax.random.key_data(jax.random.key(s)))[-1]): (
                        jax.random.uniform(jax.random.key(s), (3,), dtype=jnp.float16)
                    )
                    for s in (7, 0, 2024)
                }


                def uniform16(key, shape):
                    if isinstance(key, jax.core.Tracer):
                        return jnp.zeros(shape, jnp.float16)
                    return _table[int(_np.asarray(jax.random.key_data(key))[-1])]
                """,
            ),
        ],
    },
    "THIRD_READ_C": {
        3: [
            wrong(
                "jax.random.uniform under another name, bound before the check",
                "skips-technique",
                """
                from jax.random import uniform as _u


                def uniform16(key, shape):
                    return _u(key, shape, dtype=jnp.float16)
                """,
            ),
            wrong(
                "jax.random.uniform reached through jax._src.random",
                "skips-technique",
                """
                import jax._src.random as _r


                def uniform16(key, shape):
                    return _r.uniform(key, shape, dtype=jnp.float16)
                """,
            ),
        ],
    },
}

# Further wrong answers of each kind, for each exercise.
OTHERS: dict[int, list[Wrong]] = {
    # Exercises 1 and 2 were predictions (numbers) until issue 51 made each a function that
    # reads a jaxpr; each old wrong guess is kept as the function that makes the same mistake.
    1: [
        wrong(
            "a whole uint32 word",
            "constant",
            """
            def random_bits_width(sample):
                return 32
            """,
        ),
        wrong(
            "eight bits",
            "skips-technique",
            """
            def random_bits_width(sample):
                return 8
            """,
        ),
        wrong(
            "the width of the numbers drawn, not of the words: right for float16 and float32",
            "uniform-only",
            """
            def random_bits_width(sample):
                return jnp.dtype(jax.eval_shape(sample, key).dtype).itemsize * 8
            """,
        ),
    ],
    2: [
        wrong(
            "float32's numbers",
            "constant",
            """
            def shift_and_or(sample):
                return 9, 0x3F800000
            """,
        ),
        wrong(
            "shift by the mantissa width",
            "skips-technique",
            """
            def shift_and_or(sample):
                nmant = jnp.finfo(jax.eval_shape(sample, key).dtype).nmant
                one = jnp.array(1.0, jax.eval_shape(sample, key).dtype)
                return nmant, int(jax.lax.bitcast_convert_type(one, jnp.uint16))
            """,
        ),
        wrong(
            "float16's numbers, whatever the draw",
            "uniform-only",
            """
            def shift_and_or(sample):
                return 6, 0x3C00
            """,
        ),
    ],
    3: [
        wrong(
            "jax.random.uniform itself",
            "skips-technique",
            """
                def uniform16(key, shape):
                    return jax.random.uniform(key, shape, dtype=jnp.float16)
                """,
        ),
        wrong(
            "key 7's numbers, typed in",
            "constant",
            """
                _seven = jax.random.uniform(jax.random.key(7), (3,), dtype=jnp.float16)


                def uniform16(key, shape):
                    return _seven
                """,
        ),
        wrong(
            "the bits of key 7, whatever the key",
            "uniform-only",
            """
                def uniform16(key, shape):
                    bits = jax.random.bits(jax.random.key(7), shape, jnp.uint16)
                    raised = (bits >> 6) | jnp.uint16(0x3C00)
                    one_to_two = jax.lax.bitcast_convert_type(raised, jnp.float16)
                    return one_to_two - jnp.float16(1.0)
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
        "random_bits_width",
        mentioned=("(lambda k: jax.random.uniform(k, (3,), dtype=jnp.float16),)",),
        swaps=(
            ('params["bit_width"]', "outvars[0].aval.dtype.itemsize"),
            ("every_equation(closed.jaxpr)", "closed.jaxpr.eqns"),
        ),
    ),
    2: generated(
        "shift_and_or",
        mentioned=("(lambda k: jax.random.uniform(k, (3,), dtype=jnp.float16),)",),
        swaps=(
            ('found["or"].invars[1].val', 'found["and"].invars[1].val'),
            (
                "every_equation(jax.make_jaxpr(sample)(key).jaxpr)",
                "jax.make_jaxpr(sample)(key).jaxpr.eqns",
            ),
        ),
    ),
    3: generated(
        "uniform16",
        # the text's key as the raw pair of words the check draws keys as (a typed key's dtype has
        # no kind for the runner's signature)
        mentioned=("(jax.random.key_data(key), (3,))",),
        swaps=(("(bits >> 6)", "(bits << 6)"), ("- jnp.float16(1.0)", "* jnp.float16(0.5)")),
    ),
}
