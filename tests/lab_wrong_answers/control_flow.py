"""The control-flow lab (docs/labs/control-flow.ipynb): its wrong answers, its other right
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

LAB = "control-flow"

# The wrong answers each read found passing, by read (the package's READS says which).
READS: Reads = {
    "REVIEWED": {
        1: [
            wrong(
                "tests each entry against limit, not the norm",
                "skips-technique",
                """
                def clip_where(v, limit):
                    norm = jnp.linalg.norm(v)
                    return jnp.where(jnp.abs(v) > limit, v * (limit / norm), v)
                """,
            ),
            wrong(
                "tests the largest entry against limit, not the norm",
                "skips-technique",
                """
                def clip_where(v, limit):
                    norm = jnp.linalg.norm(v)
                    return jnp.where(jnp.max(jnp.abs(v)) > limit, v * (limit / norm), v)
                """,
            ),
        ],
        2: [
            wrong(
                "a cond on the largest entry, not the norm",
                "skips-technique",
                """
                def clip_cond(v, limit):
                    norm = jnp.linalg.norm(v)
                    return lax.cond(
                        jnp.max(jnp.abs(v)) > limit, lambda u: u * (limit / norm), lambda u: u, v
                    )
                """,
            ),
            wrong(
                "a cond on any entry above limit",
                "skips-technique",
                """
                def clip_cond(v, limit):
                    norm = jnp.linalg.norm(v)
                    return lax.cond(
                        jnp.any(jnp.abs(v) > limit), lambda u: u * (limit / norm), lambda u: u, v
                    )
                """,
            ),
        ],
        4: [
            wrong(
                "inclusive bounds",
                "skips-technique",
                """
                def in_band(batch):
                    norms = jnp.linalg.norm(batch, axis=1)
                    return (norms >= 1.0) & (norms <= 8.0)
                """,
            ),
            wrong(
                "inclusive upper bound",
                "skips-technique",
                """
                def in_band(batch):
                    norms = jnp.linalg.norm(batch, axis=1)
                    return (norms > 1.0) & (norms <= 8.0)
                """,
            ),
        ],
        5: [
            wrong(
                "halved outside the loop, whose body multiplies by 1.0",
                "skips-technique",
                """
                def halve(u, steps):
                    u = u * 0.5**steps
                    return lax.fori_loop(0, steps, lambda i, w: w * 1.0, u)
                """,
            ),
            wrong(
                "one trip that does all the halving",
                "skips-technique",
                """
                def halve(u, steps):
                    return lax.fori_loop(0, 1, lambda i, w: w * 0.5**steps, u)
                """,
            ),
            wrong(
                "steps trips, all the halving done on trip 0",
                "skips-technique",
                """
                def halve(u, steps):
                    return lax.fori_loop(
                        0, steps, lambda i, w: jnp.where(i == 0, w * 0.5**steps, w), u
                    )
                """,
            ),
        ],
    },
    "CONFIRMATION_READ_FG": {
        1: [
            wrong(
                "the squared norm compared with the limit",
                "uniform-only",
                """
                def clip_where(u, limit):
                    n = jnp.linalg.norm(u)
                    return jnp.where((u**2).sum() > limit, u * limit / n, u)
                """,
            ),
        ],
        2: [
            wrong(
                "lax.cond on the squared norm compared with the limit",
                "uniform-only",
                """
                def clip_cond(u, limit):
                    n = jnp.linalg.norm(u)
                    return lax.cond((u**2).sum() > limit, lambda w: w * (limit / n), lambda w: w, u)
                """,
            ),
        ],
        5: [
            wrong(
                "at most five trips, min(steps, 5): right for the steps tried",
                "uniform-only",
                """
                def halve(u, steps):
                    return lax.fori_loop(0, min(steps, 5), lambda i, w: w * 0.5, u)
                """,
            ),
        ],
    },
    "FINAL_READ_IJ": {
        1: [
            wrong(
                "hard-codes the start cell's limit, 2.0, ignoring its limit argument",
                "skips-technique",
                """
                def clip_where(v, limit):
                    norm = jnp.linalg.norm(v)
                    return jnp.where(norm > 2.0, v * (2.0 / norm), v)
                """,
            ),
        ],
        2: [
            wrong(
                "hard-codes 2.0 in the cond, ignoring its limit argument",
                "skips-technique",
                """
                def clip_cond(v, limit):
                    norm = jnp.linalg.norm(v)
                    return lax.cond(norm > 2.0, lambda u: u * (2.0 / norm), lambda u: u, v)
                """,
            ),
        ],
    },
    "LAST_READ_L": {
        1: [
            wrong(
                "the norm by Pythagoras on the first two entries",
                "skips-technique",
                """
                def clip_where(v, limit):
                    norm = jnp.sqrt(v[0] ** 2 + v[1] ** 2)
                    return jnp.where(norm > limit, v * (limit / norm), v)
                """,
            ),
            wrong(
                "scales the unit vector by min(norm, limit): nan for a zero vector",
                "skips-technique",
                """
                def clip_where(v, limit):
                    norm = jnp.linalg.norm(v)
                    return v / norm * jnp.where(norm > limit, limit, norm)
                """,
            ),
            wrong(
                "v * min(norm, limit) / norm, no where: nan for a zero vector",
                "skips-technique",
                """
                def clip_where(v, limit):
                    norm = jnp.linalg.norm(v)
                    return v * (jnp.minimum(norm, limit) / norm)
                """,
            ),
        ],
        2: [
            wrong(
                "the norm by hypot of the first two entries",
                "skips-technique",
                """
                def clip_cond(v, limit):
                    norm = jnp.hypot(v[0], v[1])
                    return lax.cond(norm > limit, lambda u: u * (limit / norm), lambda u: u, v)
                """,
            ),
            wrong(
                "the rescaling computed before the cond, which only picks",
                "skips-technique",
                """
                def clip_cond(v, limit):
                    norm = jnp.linalg.norm(v)
                    scaled = v * (limit / norm)
                    return lax.cond(norm > limit, lambda: scaled, lambda: v)
                """,
            ),
            wrong(
                "a cond that picks a scale factor, the multiply after it",
                "skips-technique",
                """
                def clip_cond(v, limit):
                    norm = jnp.linalg.norm(v)
                    one = jnp.float32(1.0)
                    return v * lax.cond(norm > limit, lambda: limit / norm, lambda: one)
                """,
            ),
            wrong(
                "a cond that picks the target length, the rescaling after it",
                "skips-technique",
                """
                def clip_cond(v, limit):
                    norm = jnp.linalg.norm(v)
                    target = lax.cond(
                        norm > limit, lambda: jnp.asarray(limit, v.dtype), lambda: norm
                    )
                    return v * (target / jnp.maximum(norm, 1e-30))
                """,
            ),
            wrong(
                "a false branch that divides by the norm and multiplies back",
                "skips-technique",
                """
                def clip_cond(v, limit):
                    norm = jnp.linalg.norm(v)
                    return lax.cond(
                        norm > limit, lambda u: u * (limit / norm), lambda u: u / norm * norm, v
                    )
                """,
            ),
        ],
        4: [
            wrong(
                "norms by Pythagoras on the first two columns",
                "skips-technique",
                """
                def in_band(batch):
                    norms = jnp.sqrt(batch[:, 0] ** 2 + batch[:, 1] ** 2)
                    return (norms > 1.0) & (norms < 8.0)
                """,
            ),
            wrong(
                "the mask cast to int32",
                "skips-technique",
                """
                def in_band(batch):
                    norms = jnp.linalg.norm(batch, axis=1)
                    return ((norms > 1.0) & (norms < 8.0)).astype(jnp.int32)
                """,
            ),
        ],
    },
    "LAST_READ_L4": {
        5: [
            wrong(
                "a decoy piece of the carry halves, the returned one is scaled in one trip",
                "skips-technique",
                """
                def halve(u, steps):
                    def body(i, c):
                        return c[0] * 0.5, jnp.where(i == 0, c[1] * 0.5**steps, c[1])

                    return lax.fori_loop(0, steps, body, (u, u))[1]
                """,
            ),
        ],
    },
    "ISSUE_51": {
        1: [
            wrong(
                "jnp.minimum, no jnp.where",
                "skips-technique",
                """
                def clip_where(v, limit):
                    norm = jnp.linalg.norm(v)
                    return v * jnp.minimum(1.0, limit / norm)
                """,
            ),
        ],
        2: [
            wrong(
                "a cond that only guards the zero vector, jnp.where doing the work",
                "skips-technique",
                """
                def clip_cond(v, limit):
                    norm = jnp.linalg.norm(v)
                    scaled = jnp.where(norm > limit, v * (limit / norm), v)
                    return lax.cond(norm == 0, lambda u: u, lambda u: u * 1.0, scaled)
                """,
            ),
        ],
    },
}

# Further wrong answers of each kind, for each exercise.
OTHERS: dict[int, list[Wrong]] = {
    1: [
        wrong(
            "the first row's answer",
            "constant",
            """
                def clip_where(v, limit):
                    return v * 0 + jnp.array([1.2, 1.6])
                """,
        ),
        wrong(
            "lax.cond instead of where",
            "skips-technique",
            """
                def clip_where(v, limit):
                    norm = jnp.linalg.norm(v)
                    return lax.cond(norm > limit, lambda u: u * (limit / norm), lambda u: u, v)
                """,
        ),
        wrong(
            "the largest entry for the norm",
            "uniform-only",
            """
                def clip_where(v, limit):
                    norm = jnp.abs(v).max() * jnp.sqrt(v.size)
                    return jnp.where(norm > limit, v * (limit / norm), v)
                """,
        ),
    ],
    2: [
        wrong(
            "always rescales",
            "constant",
            """
                def clip_cond(v, limit):
                    norm = jnp.linalg.norm(v)
                    return lax.cond(True, lambda u: u * (limit / norm), lambda u: u, v)
                """,
        ),
        wrong(
            "jnp.where instead of cond",
            "skips-technique",
            """
                def clip_cond(v, limit):
                    norm = jnp.linalg.norm(v)
                    return jnp.where(norm > limit, v * (limit / norm), v)
                """,
        ),
        wrong(
            "the sum for the norm",
            "uniform-only",
            """
                def clip_cond(v, limit):
                    norm = jnp.sum(v)
                    return lax.cond(norm > limit, lambda u: u * (limit / norm), lambda u: u, v)
                """,
        ),
    ],
    # Exercise 3 was two predictions ("cond" or "select_n", and the error a static limit
    # raises) until issue 51 made it a function; each old wrong guess is kept as the code that
    # makes the same mistake.
    3: [
        wrong(
            "cond stays, nothing raised",
            "skips-technique",
            """
            def clip_rows(batch, limit):
                return jnp.stack([clip_cond(row, limit) for row in batch])
            """,
        ),
        wrong(
            "select_n, but static fixes the if",
            "skips-technique",
            """
            @partial(jax.jit, static_argnames="limit")
            def clip_one(v, limit):
                norm = jnp.linalg.norm(v)
                if norm > limit:
                    return v * (limit / norm)
                return v


            def clip_rows(batch, limit):
                return jax.vmap(clip_one, in_axes=(0, None))(batch, limit)
            """,
        ),
        wrong(
            "the start cell's batch, clipped, typed in",
            "constant",
            """
            def clip_rows(batch, limit):
                return jnp.array([[1.2, 1.6], [0.3, 0.4], [1.2, 1.6]])
            """,
        ),
        wrong(
            "every row rescaled, right when all are long",
            "uniform-only",
            """
            def clip_rows(batch, limit):
                return batch * (limit / jnp.linalg.norm(batch, axis=1, keepdims=True))
            """,
        ),
        wrong(
            "lax.map over the rows",
            "skips-technique",
            """
            def clip_rows(batch, limit):
                return lax.map(lambda row: clip_cond(row, limit), batch)
            """,
        ),
    ],
    4: [
        wrong(
            "the check's batch's answer",
            "constant",
            """
                def in_band(batch):
                    return jnp.array([True, False, False]) & True
                """,
        ),
        wrong(
            "where in place of &",
            "skips-technique",
            """
                def in_band(batch):
                    norms = jnp.linalg.norm(batch, axis=1)
                    return jnp.where(norms > 1.0, norms < 8.0, False)
                """,
        ),
        wrong(
            "the largest entry for the norm",
            "uniform-only",
            """
                def in_band(batch):
                    norms = jnp.abs(batch).max(axis=1)
                    return (norms > 1.0) & (norms < 8.0)
                """,
        ),
    ],
    5: [
        wrong(
            "times 0.125",
            "constant",
            """
                def halve(u, steps):
                    return u * 0.125
                """,
        ),
        wrong(
            "a Python loop",
            "skips-technique",
            """
                def halve(u, steps):
                    for _ in range(steps):
                        u = u * 0.5
                    return u
                """,
        ),
        wrong(
            "fori_loop over a fixed 3 steps",
            "uniform-only",
            """
                def halve(u, steps):
                    return lax.fori_loop(0, 3, lambda i, w: w * 0.5, u)
                """,
        ),
        # Issue 37: a loop that does nothing passed, its jaxpr holding a scan.
        wrong(
            "a fori_loop that does nothing, the halving done outside it",
            "skips-technique",
            """
                def halve(u, steps):
                    lax.fori_loop(0, steps, lambda i, w: w, u)
                    return u * 0.5**steps
                """,
        ),
        wrong(
            "a fori_loop whose body ignores its carry",
            "skips-technique",
            """
                def halve(u, steps):
                    return lax.fori_loop(0, steps, lambda i, w: u * 0.5**steps, u)
                """,
        ),
    ],
}

# Correct answers the worked solution does not write: each must get "correct".
RIGHT: dict[int, list[Right]] = {
    # Issue 37's last read L added `v * jnp.minimum(1.0, limit / norm)` to Exercise 1 here;
    # issue 51 quotes it as skipping the technique (no jnp.where): it is now a wrong answer
    # (READS["ISSUE_51"]). Issue 37, last read L: a mask's dtype, a dotted name.
    # Exercise 3's right answers were predictions (the error class itself, its dotted name)
    # until issue 51 made it a function.
    3: [
        right(
            "clip_where under vmap",
            """
            def clip_rows(batch, limit):
                return jax.vmap(clip_where, in_axes=(0, None))(batch, limit)
            """,
        ),
        right(
            "vmap of a lambda closing over limit",
            """
            def clip_rows(batch, limit):
                return jax.vmap(lambda row: clip_cond(row, limit))(batch)
            """,
        ),
    ],
    4: [
        right(
            "jnp.logical_and of the two comparisons",
            """
                def in_band(batch):
                    norms = jnp.linalg.norm(batch, axis=1)
                    return jnp.logical_and(norms > 1.0, norms < 8.0)
                """,
        ),
    ],
    5: [
        right(
            "a tuple carry with a counter beside the value",
            """
                def halve(u, steps):
                    return lax.fori_loop(0, steps, lambda i, c: (c[0] * 0.5, c[1] + 1), (u, 0))[0]
                """,
        ),
        right(
            "fori_loop imported by name",
            """
                from jax.lax import fori_loop


                def halve(u, steps):
                    return fori_loop(0, steps, lambda i, w: w / 2, u)
                """,
        ),
        right(
            "jitted, with steps static by position",
            """
                from functools import partial


                @partial(jax.jit, static_argnums=1)
                def halve(u, steps):
                    return lax.fori_loop(0, steps, lambda i, w: w * 0.5, u)
                """,
        ),
        right(
            "jitted by jax.jit(..., static_argnames=...)",
            """
                def _halve(u, steps):
                    return lax.fori_loop(0, steps, lambda i, w: w * 0.5, u)


                halve = jax.jit(_halve, static_argnames="steps")
                """,
        ),
    ],
}

# Words the check must say to a wrong answer: (exercise, label) -> words.
SAYS: dict[tuple[int, str], str] = {}

# How the generated wrong answers (a)-(c) of each exercise are made (docs/guide/labs.md).
GENERATED: dict[int, Generated] = {
    1: generated(
        "clip_where",
        mentioned=("(v, limit)",),
        swaps=(
            (
                "jnp.where(norm > limit, v * (limit / norm), v)",
                "v * jnp.minimum(1.0, limit / norm)",
            ),
            ("jnp.where(norm > limit,", "jnp.where(norm < limit,"),
        ),
    ),
    2: generated(
        "clip_cond",
        mentioned=("(v, limit)",),
        swaps=(
            (
                "lax.cond(\n"
                "        norm > limit, lambda u: u * (limit / norm), lambda u: u, v\n"
                "    )",
                "jnp.where(norm > limit, v * (limit / norm), v)",
            ),
        ),
    ),
    3: generated(
        "clip_rows",
        mentioned=("(batch, limit)",),
        swaps=(
            (
                "jax.vmap(clip_cond, in_axes=(0, None))(batch, limit)",
                "jnp.stack([clip_cond(row, limit) for row in batch])",
            ),
        ),
    ),
    4: generated(
        "in_band",
        mentioned=("(batch,)",),
        swaps=(
            ("(norms > 1.0) & (norms < 8.0)", "(norms >= 1.0) & (norms < 8.0)"),
            ("(norms > 1.0) & (norms < 8.0)", "(norms > 1.0) | (norms < 8.0)"),
        ),
    ),
    5: generated(
        "halve",
        mentioned=("(v, 3)",),
        swaps=(
            (
                "lax.fori_loop(0, steps, lambda i, w: w * 0.5, u)",
                "u * jnp.prod(jnp.full(steps, 0.5))",
            ),
            (
                "lax.fori_loop(0, steps, lambda i, w: w * 0.5, u)",
                "lax.fori_loop(1, steps, lambda i, w: w * 0.5, u)",
            ),
        ),
    ),
}
