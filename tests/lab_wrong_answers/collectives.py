"""The collectives lab (docs/labs/collectives.ipynb): its wrong answers, its other right
answers, the words its checks must say, and how its generated wrong answers are made."""

from __future__ import annotations

from ._table import Generated, Reads, Right, Wrong, generated, wrong

LAB = "collectives"

# The wrong answers each read found passing, by read (the package's READS says which).
READS: Reads = {
    "REVIEWED": {
        1: [
            wrong(
                "jit of a plain mean whose name is pmean_of",
                "skips-technique",
                """
                def pmean_of(d):
                    return d.mean()


                mean_all = jax.jit(pmean_of)
                """,
            ),
            wrong(
                "jit of a plain mean whose name is psum",
                "skips-technique",
                """
                def psum(d):
                    return d.sum() / d.size


                mean_all = jax.jit(psum)
                """,
            ),
        ],
        2: [
            wrong(
                "jnp.roll of a replicated copy: no shard_map, no ppermute",
                "skips-technique",
                """
                def from_right(d):
                    return jnp.roll(jax.device_put(d, NamedSharding(ring, P())), -2)
                """,
            ),
            wrong(
                "all_gather, then each device picks its right neighbour's block",
                "skips-technique",
                """
                def _pick(block):
                    everything = jnp.roll(jax.lax.all_gather(block, "i", tiled=True), -2)
                    return everything.reshape(8, 2)[jax.lax.axis_index("i")]


                from_right = jax.shard_map(_pick, mesh=ring, in_specs=P("i"), out_specs=P("i"))
                """,
            ),
        ],
        3: [
            wrong(
                "device 1's block only: where this xs has its maximum",
                "uniform-only",
                """
                max_everywhere = jax.shard_map(
                    lambda b: jnp.full((1,), jax.lax.all_gather(b, "i")[1].max()),
                    mesh=ring,
                    in_specs=P("i"),
                    out_specs=P("i"),
                )
                """,
            ),
            wrong(
                "the constant 4.0, plus an all_gather times 0",
                "constant",
                """
                max_everywhere = jax.shard_map(
                    lambda b: jnp.full((1,), 4.0) + 0 * jax.lax.all_gather(b, "i", tiled=True)[:1],
                    mesh=ring,
                    in_specs=P("i"),
                    out_specs=P("i"),
                )
                """,
            ),
        ],
    },
    "THIRD_READ_C": {
        3: [
            wrong(
                "the largest magnitude, not the largest value",
                "skips-technique",
                """
                def _largest(b):
                    return jnp.full((1,), jnp.abs(jax.lax.all_gather(b, "i", tiled=True)).max())


                max_everywhere = jax.shard_map(
                    _largest, mesh=ring, in_specs=P("i"), out_specs=P("i")
                )
                """,
            ),
            wrong(
                "a maximum that starts from 0",
                "skips-technique",
                """
                def _from_zero(b):
                    gathered = jax.lax.all_gather(b, "i", tiled=True)
                    return jnp.full((1,), jnp.maximum(0.0, gathered.max()))


                max_everywhere = jax.shard_map(
                    _from_zero, mesh=ring, in_specs=P("i"), out_specs=P("i")
                )
                """,
            ),
        ],
    },
    "ISSUE_51": {
        1: [
            wrong(
                "a mean that divides by a hard-coded 8: wrong on 4 devices",
                "skips-technique",
                """
                def mean_all(xs):
                    body = lambda block: jax.lax.psum(block.mean(), "i") / 8
                    return jax.shard_map(body, in_specs=P("i"), out_specs=P())(xs)
                """,
            ),
        ],
    },
}

# Further wrong answers of each kind, for each exercise.
OTHERS: dict[int, list[Wrong]] = {
    1: [
        wrong(
            "the mean computed eagerly, outside",
            "constant",
            """
                _mean = float(xs.mean())
                mean_all = lambda a: jnp.float32(_mean)  # noqa: E731
                """,
        ),
        wrong(
            "psum over a hard-coded 16",
            "skips-technique",
            """
                mean_all = jax.shard_map(
                    lambda b: jax.lax.psum(b.sum(), "i") / 16,
                    mesh=ring,
                    in_specs=P("i"),
                    out_specs=P(),
                )
                """,
        ),
        wrong(
            "pmean of each block's first element",
            "uniform-only",
            """
                mean_all = jax.shard_map(
                    lambda b: jax.lax.pmean(b[0], "i"), mesh=ring, in_specs=P("i"), out_specs=P()
                )
                """,
        ),
    ],
    2: [
        wrong(
            "jnp.roll, no ppermute",
            "skips-technique",
            """
                from_right = lambda a: jnp.roll(a, -2)  # noqa: E731
                """,
        ),
        wrong(
            "the left neighbour's block",
            "constant",
            """
                right = [(d, (d + 1) % 8) for d in range(8)]
                from_right = jax.shard_map(
                    lambda b: jax.lax.ppermute(b, "i", perm=right),
                    mesh=ring,
                    in_specs=P("i"),
                    out_specs=P("i"),
                )
                """,
        ),
        wrong(
            "the block two devices to the right",
            "uniform-only",
            """
                two = [(d, (d - 2) % 8) for d in range(8)]
                from_right = jax.shard_map(
                    lambda b: jax.lax.ppermute(b, "i", perm=two),
                    mesh=ring,
                    in_specs=P("i"),
                    out_specs=P("i"),
                )
                """,
        ),
    ],
    3: [
        wrong(
            "eight copies of a number",
            "constant",
            """
                max_everywhere = lambda a: jnp.full((8,), 6.0)  # noqa: E731
                """,
        ),
        wrong(
            "pmax",
            "skips-technique",
            """
                max_everywhere = jax.shard_map(
                    lambda b: jax.lax.pmax(b.max(keepdims=True), "i"),
                    mesh=ring,
                    in_specs=P("i"),
                    out_specs=P("i"),
                )
                """,
        ),
        wrong(
            "gathers, then takes the local block's max",
            "uniform-only",
            """
                def _local(block):
                    jax.lax.all_gather(block, "i", tiled=True)
                    return block.max(keepdims=True)


                max_everywhere = jax.shard_map(_local, mesh=ring, in_specs=P("i"), out_specs=P("i"))
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
        "mean_all",
        mentioned=("(xs,)",),
        swaps=(("jax.lax.pmean(", "jax.lax.pmax("),),
    ),
    2: generated(
        "from_right",
        mentioned=("(xs,)",),
        swaps=(
            ("(d - 1) % count", "(d + 1) % count"),
            ('count = jax.lax.axis_size("i")', "count = 8"),
        ),
    ),
    3: generated(
        "max_everywhere",
        mentioned=("(xs,)",),
        swaps=(('jax.lax.all_gather(block, "i", tiled=True)', 'jax.lax.pmax(block, "i")'),),
    ),
}
