"""The derivatives lab (docs/labs/derivatives.ipynb): its wrong answers, its other right
answers, the words its checks must say, and how its generated wrong answers are made."""

from __future__ import annotations

from ._table import Generated, Reads, Right, Wrong, generated, right, wrong

LAB = "derivatives"

# The wrong answers each read found passing, by read (the package's READS says which).
READS: Reads = {
    "ISSUE_51": {
        2: [
            wrong(
                "hard-codes the check's direction [1, -1, .5, 0, 2]",
                "constant",
                """
                def hvp(f, x, v):
                    return jax.jvp(jax.grad(f), (x,), (jnp.array([1.0, -1.0, 0.5, 0.0, 2.0]),))[1]
                """,
            ),
        ],
    },
    "ISSUE_36": {
        3: [
            wrong(
                "also saves the second layer's unnamed dot_general",
                "skips-technique",
                """
                def two_layers_named(w, x):
                    z = checkpoint_name(w @ x, "first")
                    return jnp.sum(jnp.tanh(w @ jnp.tanh(z)))


                policy = jax.checkpoint_policies.save_from_both_policies(
                    jax.checkpoint_policies.save_only_these_names("first"),
                    jax.checkpoint_policies.dots_with_no_batch_dims_saveable,
                )
                saved_policy_fn = jax.checkpoint(two_layers_named, policy=policy)
                """,
            ),
        ],
    },
    "REVIEWED": {
        2: [
            wrong(
                "the Hessian's diagonal times v, element by element",
                "skips-technique",
                """
                def hvp(f, x, v):
                    return jax.grad(lambda x: jnp.sum(jax.grad(f)(x)))(x) * v
                """,
            ),
            wrong(
                "jvp of grad along ones, times v element by element",
                "skips-technique",
                """
                def hvp(f, x, v):
                    return jax.jvp(jax.grad(f), (x,), (jnp.ones_like(x),))[1] * v
                """,
            ),
        ],
    },
    "CONFIRMATION_READ_E": {
        2: [
            wrong(
                "forward over forward, one jvp of jvp per basis vector",
                "skips-technique",
                """
                def hvp(f, x, v):
                    def along(e):
                        return jax.jvp(lambda y: jax.jvp(f, (y,), (v,))[1], (x,), (e,))[1]

                    n = x.shape[0]
                    return jnp.stack([along(jnp.zeros(n).at[i].set(1.0)) for i in range(n)])
                """,
            ),
            wrong(
                "forward over forward, linearized once, pushed along each basis vector",
                "skips-technique",
                """
                def hvp(f, x, v):
                    _, along = jax.linearize(lambda y: jax.jvp(f, (y,), (v,))[1], x)
                    n = x.shape[0]
                    return jnp.stack([along(jnp.zeros(n).at[i].set(1.0)) for i in range(n)])
                """,
            ),
        ],
    },
    "CONFIRMATION_READ_H": {
        3: [
            wrong(
                "the name on the second layer's product w @ h, not on w @ x",
                "skips-technique",
                """
                def _second_named(w, x):
                    h = jnp.tanh(w @ x)
                    return jnp.sum(jnp.tanh(checkpoint_name(w @ h, "first")))


                saved_policy_fn = jax.checkpoint(
                    _second_named, policy=jax.checkpoint_policies.save_only_these_names("first")
                )
                """,
            ),
        ],
    },
    "FINAL_READ_IJ": {
        2: [
            wrong(
                "differentiates at x5 whatever x it is given",
                "skips-technique",
                """
                def hvp(f, x, v):
                    return jax.jvp(jax.grad(f), (x5,), (v,))[1]
                """,
            ),
        ],
    },
}

# Further wrong answers of each kind, for each exercise.
OTHERS: dict[int, list[Wrong]] = {
    # Exercise 1 was three predictions (two counts and the shorter mode) until issue 51 made it
    # a function; each old wrong guess is kept as the code that makes the same mistake.
    1: [
        wrong(
            "jacrev shorter, counts guessed",
            "constant",
            """
                def jacobian_lengths(f, x):
                    return 10, 8
                """,
        ),
        wrong(
            "right counts, the rule of thumb for shorter",
            "skips-technique",
            """
                def jacobian_lengths(f, x):
                    fwd = len(jax.make_jaxpr(jax.jacfwd(f))(x).eqns)
                    rev = len(jax.make_jaxpr(jax.jacrev(f))(x).eqns)
                    return max(fwd, rev), min(fwd, rev)
                """,
        ),
        wrong(
            "counts the lab's wide whatever f it is given",
            "uniform-only",
            """
                def jacobian_lengths(f, x):
                    fwd = len(jax.make_jaxpr(jax.jacfwd(wide))(x5).eqns)
                    rev = len(jax.make_jaxpr(jax.jacrev(wide))(x5).eqns)
                    return fwd, rev
                """,
        ),
    ],
    2: [
        wrong(
            "zeros",
            "constant",
            """
                def hvp(f, x, v):
                    return jnp.zeros_like(x)
                """,
        ),
        wrong(
            "the full Hessian",
            "skips-technique",
            """
                def hvp(f, x, v):
                    return jax.hessian(f)(x) @ v
                """,
        ),
        wrong(
            "ignores v: right when v is all ones",
            "uniform-only",
            """
                def hvp(f, x, v):
                    return jax.jvp(jax.grad(f), (x,), (jnp.ones_like(x),))[1]
                """,
        ),
    ],
    3: [
        wrong(
            "everything saved, nothing named",
            "constant",
            """
                saved_policy_fn = jax.checkpoint(
                    two_layers, policy=jax.checkpoint_policies.everything_saveable
                )
                """,
        ),
        wrong(
            "h @ w for w @ h: right for a symmetric w",
            "uniform-only",
            """
                def two_layers_named(w, x):
                    z = checkpoint_name(w @ x, "first")
                    return jnp.sum(jnp.tanh(jnp.tanh(z) @ w))


                policy = jax.checkpoint_policies.save_only_these_names("first")
                saved_policy_fn = jax.checkpoint(two_layers_named, policy=policy)
                """,
        ),
    ],
}

# Correct answers the worked solution does not write: each must get "correct".
RIGHT: dict[int, list[Right]] = {
    # Issue 51: the first layer's product written without @ is still w @ x.
    3: [
        right(
            "(w * x).sum(1) for w @ x",
            """
                def two_layers_named(w, x):
                    z = checkpoint_name((w * x).sum(1), "first")
                    return jnp.sum(jnp.tanh(w @ jnp.tanh(z)))


                policy = jax.checkpoint_policies.save_only_these_names("first")
                saved_policy_fn = jax.checkpoint(two_layers_named, policy=policy)
                """,
        ),
    ],
    # Issue 37, third read: the check now watches for forward mode; these use it.
    2: [
        right(
            "jvp imported by name",
            """
                from jax import jvp


                def hvp(f, x, v):
                    return jvp(jax.grad(f), (x,), (v,))[1]
                """,
        ),
        right(
            "jax.linearize of grad, applied to v",
            """
                def hvp(f, x, v):
                    return jax.linearize(jax.grad(f), x)[1](v)
                """,
        ),
        # Issue 51: reverse over reverse pushes v through once too, and its program is as long
        # as forward over reverse (14-16 against 17 equations for wide, 34-36 against 34 for a
        # coupled function, 93-95 against 99 for a longer one): the check cannot tell them
        # apart by JAX's own measure, nor from jax.linearize of grad (in RIGHT since issue 37),
        # without watching Python calls. The exercise now asks for one push of v, and these two
        # (issue 37's third read, refused then by a watch on jax.jvp) are right.
        right(
            "reverse over reverse: vjp of grad",
            """
                def hvp(f, x, v):
                    return jax.vjp(jax.grad(f), x)[1](v)[0]
                """,
        ),
        right(
            "reverse over reverse: grad of grad's dot with v",
            """
                def hvp(f, x, v):
                    return jax.grad(lambda y: jnp.vdot(jax.grad(f)(y), v))(x)
                """,
        ),
        # Review H: the exercise's text says this nesting is accepted too.
        right(
            "reverse over forward: grad of the jvp along v",
            """
                def hvp(f, x, v):
                    return jax.grad(lambda y: jax.jvp(f, (y,), (v,))[1])(x)
                """,
        ),
    ],
}

# Words the check must say to a wrong answer: (exercise, label) -> words.
SAYS: dict[tuple[int, str], str] = {}

# How the generated wrong answers (a)-(c) of each exercise are made (docs/guide/labs.md).
GENERATED: dict[int, Generated] = {
    1: generated(
        "jacobian_lengths",
        mentioned=("(wide, x5)",),
        swaps=(("jax.jacrev(f)", "jax.jacfwd(f)"), ("len(rev.eqns)", "len(rev.jaxpr.outvars)")),
    ),
    2: generated(
        "hvp",
        mentioned=("(wide, x5, jnp.ones(5))",),
        swaps=(("(x,), (v,))[1]", "(x,), (v,))[0]"), ("jax.grad(f)", "jax.grad(jnp.sin)")),
    ),
    3: generated(
        "saved_policy_fn",
        mentioned=("(w, x)",),
        swaps=(
            ("checkpoint_name(w @ x", "checkpoint_name(x @ w"),
            ("save_only_these_names", "save_any_names_but_these"),
        ),
    ),
}
