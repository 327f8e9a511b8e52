"""The randomness lab (docs/labs/randomness.ipynb): its wrong answers, its other right
answers, the words its checks must say, and how its generated wrong answers are made."""

from __future__ import annotations

from ._table import PREDICTION, Generated, Reads, Right, Wrong, not_applicable, wrong

LAB = "randomness"

# The wrong answers each read found passing, by read (the package's READS says which).
READS: Reads = {
    "THIRD_READ_C": {
        3: [
            wrong(
                "jax.random.uniform under another name, bound before the check",
                "skips-technique",
                """
                from jax.random import uniform as _u


                def uniform16(key):
                    return _u(key, (3,), dtype=jnp.float16)
                """,
            ),
            wrong(
                "jax.random.uniform reached through jax._src.random",
                "skips-technique",
                """
                import jax._src.random as _r


                def uniform16(key):
                    return _r.uniform(key, (3,), dtype=jnp.float16)
                """,
            ),
        ],
    },
}

# Further wrong answers of each kind, for each exercise.
OTHERS: dict[int, list[Wrong]] = {
    1: [
        wrong("a whole uint32 word", "constant", "predicted_bit_width = 32\n"),
        wrong("eight bits", "skips-technique", "predicted_bit_width = 8\n"),
        not_applicable("uniform-only", PREDICTION),
    ],
    2: [
        wrong("float32's numbers", "constant", "predicted_shift = 9\npredicted_or = 0x3F800000\n"),
        wrong(
            "shift by the mantissa width",
            "skips-technique",
            "predicted_shift = 10\npredicted_or = 0x3C00\n",
        ),
        not_applicable("uniform-only", PREDICTION),
    ],
    3: [
        wrong(
            "jax.random.uniform itself",
            "skips-technique",
            """
                def uniform16(key):
                    return jax.random.uniform(key, (3,), dtype=jnp.float16)
                """,
        ),
        wrong(
            "key 7's numbers, typed in",
            "constant",
            """
                _seven = jax.random.uniform(jax.random.key(7), (3,), dtype=jnp.float16)


                def uniform16(key):
                    return _seven
                """,
        ),
        wrong(
            "the bits of key 7, whatever the key",
            "uniform-only",
            """
                def uniform16(key):
                    bits = jax.random.bits(jax.random.key(7), (3,), jnp.uint16)
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
GENERATED: dict[int, Generated] = {}
