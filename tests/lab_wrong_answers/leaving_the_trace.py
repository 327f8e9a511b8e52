"""The leaving-the-trace lab (docs/labs/leaving-the-trace.ipynb): its wrong answers, its other right
answers, the words its checks must say, and how its generated wrong answers are made."""

from __future__ import annotations

from ._table import Generated, Reads, Right, Wrong, generated, right, wrong

LAB = "leaving-the-trace"

# The wrong answers each read found passing, by read (the package's READS says which).
READS: Reads = {
    "THIRD_READ": {
        1: [
            wrong(
                "jnp.cumsum after a callback that only copies",
                "skips-technique",
                """
                def host_cumsum(x):
                    out = jax.ShapeDtypeStruct(x.shape, x.dtype)
                    back = jax.pure_callback(np.asarray, out, x, vmap_method="sequential")
                    return jnp.cumsum(back)
                """,
            ),
            wrong(
                'vmap_method="expand_dims": one call for the whole batch, not sequential',
                "skips-technique",
                """
                def host_cumsum(x):
                    out = jax.ShapeDtypeStruct(x.shape, x.dtype)
                    return jax.pure_callback(
                        lambda v: np.cumsum(v, axis=-1).astype(v.dtype),
                        out,
                        x,
                        vmap_method="expand_dims",
                    )
                """,
            ),
        ],
        3: [
            wrong(
                "a kernel that only doubles, + y added outside it",
                "skips-technique",
                """
                def double_kernel(x_ref, o_ref):
                    o_ref[...] = x_ref[...] * 2.0


                def axpy(x, y):
                    block = pl.BlockSpec((4,), lambda i: (i,))
                    return pl.pallas_call(
                        double_kernel,
                        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
                        grid=(x.shape[0] // 4,),
                        in_specs=[block],
                        out_specs=block,
                        interpret=True,
                    )(x) + y
                """,
            ),
        ],
    },
    "CONFIRMATION_READ": {
        2: [
            wrong(
                "exported for float32[n, m]: the columns symbolic too",
                "skips-technique",
                """
                def serialized(f, columns):
                    n, m = export.symbolic_shape("n, m")
                    exported = export.export(jax.jit(f))(jax.ShapeDtypeStruct((n, m), jnp.float32))
                    return exported.serialize(vjp_order=1)
                """,
            ),
        ],
        3: [
            wrong(
                "every index_map sends instance i to block 1 - i",
                "skips-technique",
                """
                def axpy_kernel(x_ref, y_ref, o_ref):
                    o_ref[...] = x_ref[...] * 2.0 + y_ref[...]


                def axpy(x, y):
                    block = pl.BlockSpec((4,), lambda i: (1 - i,))
                    return pl.pallas_call(
                        axpy_kernel,
                        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
                        grid=(x.shape[0] // 4,),
                        in_specs=[block, block],
                        out_specs=block,
                        interpret=True,
                    )(x, y)
                """,
            ),
        ],
    },
}

# Further wrong answers of each kind, for each exercise.
OTHERS: dict[int, list[Wrong]] = {
    1: [
        wrong(
            "jnp.cumsum, no callback",
            "skips-technique",
            """
                def host_cumsum(x):
                    return jnp.cumsum(x)
                """,
        ),
        wrong(
            "a callback that returns zeros",
            "constant",
            """
                def host_cumsum(x):
                    out = jax.ShapeDtypeStruct(x.shape, x.dtype)
                    return jax.pure_callback(
                        lambda v: np.zeros_like(v), out, x, vmap_method="sequential"
                    )
                """,
        ),
        wrong(
            "first entry times the position: right on constant rows",
            "uniform-only",
            """
                def host_cumsum(x):
                    out = jax.ShapeDtypeStruct(x.shape, x.dtype)
                    return jax.pure_callback(
                        lambda v: (np.arange(1, v.size + 1) * v[0]).astype(v.dtype),
                        out,
                        x,
                        vmap_method="sequential",
                    )
                """,
        ),
    ],
    2: [
        wrong(
            "exported for three rows only",
            "constant",
            """
                def serialized(f, columns):
                    return export.export(jax.jit(f))(
                        jax.ShapeDtypeStruct((3, columns), jnp.float32)
                    ).serialize(vjp_order=1)
                """,
        ),
        wrong(
            "serialized without its VJP",
            "skips-technique",
            """
                def serialized(f, columns):
                    (n,) = export.symbolic_shape("n")
                    return export.export(jax.jit(f))(
                        jax.ShapeDtypeStruct((n, columns), jnp.float32)
                    ).serialize()
                """,
        ),
        wrong(
            "x instead of sin(x): right near zero",
            "uniform-only",
            """
                def serialized(f, columns):
                    (n,) = export.symbolic_shape("n")
                    return export.export(jax.jit(lambda x: x.sum(axis=0)))(
                        jax.ShapeDtypeStruct((n, columns), jnp.float32)
                    ).serialize(vjp_order=1)
                """,
        ),
    ],
    3: [
        wrong(
            "no kernel",
            "skips-technique",
            """
                def axpy(x, y):
                    return x * 2 + y
                """,
        ),
        wrong(
            "one instance over all eight",
            "constant",
            """
                def _kernel(x_ref, y_ref, o_ref):
                    o_ref[...] = x_ref[...] * 2.0 + y_ref[...]


                def axpy(x, y):
                    return pl.pallas_call(
                        _kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True
                    )(x, y)
                """,
        ),
        wrong(
            "every instance reads block 0",
            "uniform-only",
            """
                def _kernel(x_ref, y_ref, o_ref):
                    o_ref[...] = x_ref[...] * 2.0 + y_ref[...]


                def axpy(x, y):
                    first = pl.BlockSpec((4,), lambda i: (0,))
                    block = pl.BlockSpec((4,), lambda i: (i,))
                    return pl.pallas_call(
                        _kernel,
                        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
                        grid=(x.shape[0] // 4,),
                        in_specs=[first, first],
                        out_specs=block,
                        interpret=True,
                    )(x, y)
                """,
        ),
    ],
}

# Correct answers the worked solution does not write: each must get "correct".
RIGHT: dict[int, list[Right]] = {
    1: [
        right(
            "np.cumsum itself as the host function",
            """
                def host_cumsum(x):
                    out = jax.ShapeDtypeStruct(x.shape, x.dtype)
                    return jax.pure_callback(np.cumsum, out, x, vmap_method="sequential")
                """,
        ),
    ],
    3: [
        right(
            "one BlockSpec per operand, the kernel written 2 * x + y",
            """
                def kernel(x_ref, y_ref, o_ref):
                    o_ref[...] = 2.0 * x_ref[...] + y_ref[...]


                def axpy(x, y):
                    specs = [pl.BlockSpec((4,), lambda i: (i,)) for _ in range(3)]
                    return pl.pallas_call(
                        kernel,
                        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
                        grid=(len(x) // 4,),
                        in_specs=specs[:2],
                        out_specs=specs[2],
                        interpret=True,
                    )(x, y)
                """,
        ),
    ],
}

# Words the check must say to a wrong answer: (exercise, label) -> words.
SAYS: dict[tuple[int, str], str] = {}

# How the generated wrong answers (a)-(c) of each exercise are made (docs/guide/labs.md).
GENERATED: dict[int, Generated] = {
    1: generated(
        "host_cumsum",
        mentioned=("(jnp.arange(3.0),)",),
        swaps=(
            ('vmap_method="sequential"', 'vmap_method="expand_dims"'),
            ("np.cumsum(v)", "np.cumprod(v)"),
        ),
    ),
    2: generated(
        "serialized",
        mentioned=("(lambda x: jnp.sin(x).sum(axis=0), 4)",),
        swaps=(("serialize(vjp_order=1)", "serialize()"), ("(n, columns)", "(3, columns)")),
    ),
    3: generated(
        "axpy",
        mentioned=("(jnp.arange(8.0), jnp.ones(8))",),
        swaps=(
            ("x_ref[...] * 2.0 + y_ref[...]", "x_ref[...] * 2.0 - y_ref[...]"),
            ("lambda i: (i,)", "lambda i: (0,)"),
        ),
    ),
}
