"""The transforms lab (docs/labs/transforms.ipynb): its wrong answers, its other right
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

LAB = "transforms"

# The wrong answers each read found passing, by read (the package's READS says which).
READS: Reads = {
    "ISSUE_51": {
        3: [
            wrong(
                "grad imported by name, jax.vjp called for show",
                "skips-technique",
                """
                from jax import grad


                def grad_by_vjp(w, x, y):
                    jax.vjp(lambda w: loss(w, x, y), w)
                    return grad(loss)(w, x, y)
                """,
            ),
        ],
    },
    "REVIEWED": {
        1: [
            wrong(
                "vmap of grad, not jitted",
                "skips-technique",
                """
                per_example = jax.vmap(jax.grad(loss), in_axes=(None, 0, 0))
                """,
            ),
            wrong(
                "vmap of a lambda around grad, not jitted",
                "skips-technique",
                """
                def _one(w, x, y):
                    return jax.grad(loss)(w, x, y)


                per_example = jax.vmap(_one, in_axes=(None, 0, 0))
                """,
            ),
            # Issue 37, third read: a loop that does not grow with the batch passed.
            wrong(
                "lax.map of grad inside jit, no vmap",
                "skips-technique",
                """
                per_example = jax.jit(
                    lambda w, xs, ys: jax.lax.map(lambda xy: jax.grad(loss)(w, *xy), (xs, ys))
                )
                """,
            ),
        ],
        3: [
            wrong(
                "jax.jacrev, no vjp",
                "skips-technique",
                """
                def grad_by_vjp(w, x, y):
                    return jax.jacrev(loss)(w, x, y)
                """,
            ),
            wrong(
                "jax.jvp along each basis vector, no vjp",
                "skips-technique",
                """
                def grad_by_vjp(w, x, y):
                    f = lambda w: loss(w, x, y)  # noqa: E731
                    return jnp.stack([jax.jvp(f, (w,), (e,))[1] for e in jnp.eye(w.shape[0])])
                """,
            ),
        ],
    },
    "CONFIRMATION_READ_E": {
        1: [
            wrong(
                "a per-example gradient worked out by hand, jitted: no grad, no vmap",
                "skips-technique",
                """
                per_example = jax.jit(lambda w, xs, ys: 2 * (xs @ w - ys)[:, None] * xs)
                """,
            ),
            wrong(
                "the hand-worked gradient as an einsum, a batched product: no grad, no vmap",
                "skips-technique",
                """
                per_example = jax.jit(
                    lambda w, xs, ys: jnp.einsum("b,bi->bi", 2 * (xs @ w - ys), xs)
                )
                """,
            ),
            wrong(
                "jacrev of the vector of losses: no grad",
                "skips-technique",
                """
                per_example = jax.jit(
                    jax.jacrev(lambda w, xs, ys: jax.vmap(loss, (None, 0, 0))(w, xs, ys))
                )
                """,
            ),
        ],
        4: [
            wrong(
                "jacfwd over jacfwd: forward over forward, no grad",
                "skips-technique",
                """
                def curvature_in_x(w, x, y):
                    return jax.jacfwd(jax.jacfwd(loss, argnums=1), argnums=1)(w, x, y)
                """,
            ),
            wrong(
                "jacrev over jacfwd: reverse over forward, no grad",
                "skips-technique",
                """
                def curvature_in_x(w, x, y):
                    return jax.jacrev(jax.jacfwd(loss, argnums=1), argnums=1)(w, x, y)
                """,
            ),
            wrong(
                "grad called beside, its result unused, and jacfwd over jacfwd",
                "skips-technique",
                """
                def curvature_in_x(w, x, y):
                    jax.grad(loss, argnums=1)(w, x, y)
                    return jax.jacfwd(jax.jacfwd(loss, argnums=1), argnums=1)(w, x, y)
                """,
            ),
        ],
    },
    "CONFIRMATION_READ_H": {
        1: [
            wrong(
                "a (loss, gradient) pair from jax.value_and_grad",
                "skips-technique",
                """
                per_example = jax.jit(jax.vmap(jax.value_and_grad(loss), in_axes=(None, 0, 0)))
                """,
            ),
        ],
        3: [
            wrong(
                "the pullback's tuple, not the gradient in it",
                "skips-technique",
                """
                def grad_by_vjp(w, x, y):
                    value, pullback = jax.vjp(lambda w: loss(w, x, y), w)
                    return pullback(jnp.ones_like(value))
                """,
            ),
        ],
    },
}

# Further wrong answers of each kind, for each exercise.
OTHERS: dict[int, list[Wrong]] = {
    1: [
        wrong(
            "zeros",
            "constant",
            """
                per_example = lambda w, xs, ys: jnp.zeros_like(xs)  # noqa: E731
                """,
        ),
        wrong(
            "a Python loop of grads, no vmap",
            "skips-technique",
            """
                def per_example(w, xs, ys):
                    return jnp.stack([jax.grad(loss)(w, x, y) for x, y in zip(xs, ys)])
                """,
        ),
        wrong(
            "ys not mapped: one y for all",
            "uniform-only",
            """
                per_example = jax.jit(
                    jax.vmap(lambda w, x, ys: jax.grad(loss)(w, x, ys[0]), in_axes=(None, 0, None))
                )
                """,
        ),
        # Issue 53 follow-up: the other loss ran only on 7 features, a size no other call of
        # the check used, so a gradient worked out by hand everywhere else passed.
        wrong(
            "hand-worked batched product for the lab's 3 features, jax.grad otherwise",
            "skips-technique",
            """
                @jax.jit
                def per_example(w, xs, ys):
                    if xs.shape[1] == 3:
                        return jnp.einsum("b,bi->bi", 2 * (xs @ w - ys), xs)
                    return jax.vmap(jax.grad(loss), in_axes=(None, 0, 0))(w, xs, ys)
                """,
        ),
        # And with jit off for the other loss (so that no trace kept with loss serves it), an
        # answer that tells tracing from running on values passed.
        wrong(
            "hand-worked product when traced, jax.grad when run on values",
            "skips-technique",
            """
                @jax.jit
                def per_example(w, xs, ys):
                    if isinstance(xs, jax.core.Tracer):
                        return jnp.einsum("b,bi->bi", 2 * (xs @ w - ys), xs)
                    return jax.vmap(jax.grad(loss), in_axes=(None, 0, 0))(w, xs, ys)
                """,
        ),
        wrong(
            "hand-worked batched product, jax.grad only past 6 features",
            "skips-technique",
            """
                @jax.jit
                def per_example(w, xs, ys):
                    if xs.shape[1] > 6:  # wide examples: let JAX differentiate
                        return jax.vmap(jax.grad(loss), in_axes=(None, 0, 0))(w, xs, ys)
                    return jnp.einsum("b,bi->bi", 2 * (xs @ w - ys), xs)
                """,
        ),
    ],
    2: [
        wrong(
            "a contraction, no batch",
            "constant",
            """
                def dot_products(f, *args):
                    return [((((0,), (0,)), ((), ())), (3,))]
                """,
        ),
        wrong(
            "the right numbers, the wrong shape",
            "skips-technique",
            """
                def dot_products(f, *args):
                    found = []

                    def walk(jaxpr):
                        for eqn in jaxpr.eqns:
                            if eqn.primitive.name == "dot_general":
                                numbers = eqn.params["dimension_numbers"]
                                (lc, rc), (lb, rb) = numbers
                                lhs, rhs = (var.aval.shape for var in eqn.invars)
                                free = [n for i, n in enumerate(lhs) if i not in (*lc, *lb)]
                                free += [n for i, n in enumerate(rhs) if i not in (*rc, *rb)]
                                found.append((numbers, (*free, *(lhs[i] for i in lb))))
                            for value in eqn.params.values():
                                for inner in value if isinstance(value, tuple) else (value,):
                                    if hasattr(inner, "eqns"):
                                        walk(inner)

                    walk(jax.make_jaxpr(f)(*args).jaxpr)
                    return found
                """,
        ),
        wrong(
            "batch axes taken to be the first, as in the lab's program",
            "uniform-only",
            """
                def dot_products(f, *args):
                    found = []

                    def walk(jaxpr):
                        for eqn in jaxpr.eqns:
                            if eqn.primitive.name == "dot_general":
                                contracting, batch = eqn.params["dimension_numbers"]
                                batch = ((0,), (0,)) if batch[0] else ((), ())
                                found.append(((contracting, batch), eqn.outvars[0].aval.shape))
                            for value in eqn.params.values():
                                for inner in value if isinstance(value, tuple) else (value,):
                                    if hasattr(inner, "eqns"):
                                        walk(inner)

                    walk(jax.make_jaxpr(f)(*args).jaxpr)
                    return found
                """,
        ),
        wrong(
            "only the top-level equations and a jit's",
            "skips-technique",
            """
                def dot_products(f, *args):
                    program = jax.make_jaxpr(f)(*args).jaxpr
                    eqns = list(program.eqns)
                    for eqn in program.eqns:
                        if "jaxpr" in eqn.params:
                            eqns += eqn.params["jaxpr"].jaxpr.eqns
                    return [
                        (eqn.params["dimension_numbers"], eqn.outvars[0].aval.shape)
                        for eqn in eqns
                        if eqn.primitive.name == "dot_general"
                    ]
                """,
        ),
    ],
    3: [
        wrong(
            "the formula worked out by hand",
            "constant",
            """
                def grad_by_vjp(w, x, y):
                    return 2 * (jnp.dot(w, x) - y) * x
                """,
        ),
        wrong(
            "pulls back the loss, not ones",
            "uniform-only",
            """
                def grad_by_vjp(w, x, y):
                    value, pullback = jax.vjp(lambda w: loss(w, x, y), w)
                    return pullback(value)[0]
                """,
        ),
        wrong(
            "jvp imported by name, along each basis vector",
            "skips-technique",
            """
                from jax import jvp


                def grad_by_vjp(w, x, y):
                    f = lambda w: loss(w, x, y)  # noqa: E731
                    return jnp.stack([jvp(f, (w,), (e,))[1] for e in jnp.eye(w.shape[0])])
                """,
        ),
        # Issue 53 follow-up: as for exercise 1.
        wrong(
            "the formula for the lab's 3 weights, a pullback otherwise",
            "skips-technique",
            """
                def grad_by_vjp(w, x, y):
                    if w.shape == (3,):
                        return 2 * (jnp.dot(w, x) - y) * x
                    value, pullback = jax.vjp(lambda w: loss(w, x, y), w)
                    return pullback(jnp.ones_like(value))[0]
                """,
        ),
        # It passed before too: values are checked on values, the program only for its size.
        wrong(
            "the formula when traced, a pullback when run on values",
            "skips-technique",
            """
                def grad_by_vjp(w, x, y):
                    if isinstance(w, jax.core.Tracer):
                        return 2 * (jnp.dot(w, x) - y) * x
                    value, pullback = jax.vjp(lambda w: loss(w, x, y), w)
                    return pullback(jnp.ones_like(value))[0]
                """,
        ),
        wrong(
            "the formula below 7 weights, a pullback past them",
            "skips-technique",
            """
                def grad_by_vjp(w, x, y):
                    if w.shape[0] < 7:
                        return 2 * (jnp.dot(w, x) - y) * x
                    value, pullback = jax.vjp(lambda w: loss(w, x, y), w)
                    return pullback(jnp.ones_like(value))[0]
                """,
        ),
    ],
    4: [
        wrong(
            "2 w w^T, worked out by hand",
            "constant",
            """
                def curvature_in_x(w, x, y):
                    return 2 * jnp.outer(w, w)
                """,
        ),
        wrong(
            "jax.hessian",
            "skips-technique",
            """
                def curvature_in_x(w, x, y):
                    return jax.hessian(loss, argnums=1)(w, x, y)
                """,
        ),
        wrong(
            "in w, not x",
            "uniform-only",
            """
                def curvature_in_x(w, x, y):
                    return jax.jacfwd(jax.grad(loss))(w, x, y)
                """,
        ),
        # Issue 53 follow-up: as for exercise 1.
        wrong(
            "2 w w^T for the lab's 3 features, jacfwd over grad otherwise",
            "skips-technique",
            """
                def curvature_in_x(w, x, y):
                    if x.shape == (3,):
                        return 2 * jnp.outer(w, w)
                    return jax.jacfwd(jax.grad(loss, argnums=1), argnums=1)(w, x, y)
                """,
        ),
        wrong(
            "2 w w^T below 7 features, jacfwd over grad past them",
            "skips-technique",
            """
                def curvature_in_x(w, x, y):
                    if x.shape[0] < 7:
                        return 2 * jnp.outer(w, w)
                    return jax.jacfwd(jax.grad(loss, argnums=1), argnums=1)(w, x, y)
                """,
        ),
    ],
}

# Correct answers the worked solution does not write: each must get "correct".
RIGHT: dict[int, list[Right]] = {
    1: [
        right(
            "vmap of grad over a broadcast w",
            """
                def per_example(w, xs, ys):
                    return jax.vmap(jax.grad(loss))(jnp.broadcast_to(w, xs.shape), xs, ys)


                per_example = jax.jit(per_example)
                """,
        ),
        right(
            "vmap of value_and_grad's gradient",
            """
                per_example = jax.jit(
                    jax.vmap(lambda w, x, y: jax.value_and_grad(loss)(w, x, y)[1], (None, 0, 0))
                )
                """,
        ),
        # Issue 53 follow-up: refused while the other loss ran on 7 features only, a size at
        # which the reader's own jitted gradient already held a trace made with loss.
        right(
            "vmap of a jitted grad tried on 2 to 7 features first",
            """
                grad_loss = jax.jit(jax.grad(loss))
                for d in range(2, 8):  # tried on examples of 2 to 7 features
                    print(grad_loss(jnp.ones(d), jnp.linspace(0.0, 1.0, d), ys[0]))
                per_example = jax.jit(jax.vmap(grad_loss, in_axes=(None, 0, 0)))
                """,
        ),
    ],
    # Issue 51: the check reads the program, and JAX writes the same one, equation for
    # equation, for a pullback of ones, jax.grad, jax.value_and_grad and a linearization
    # transposed (6 equations each for loss); only a watch on Python calls told them apart
    # before, and the issue forbids that. These were wrong answers of issue 37's reads.
    3: [
        right(
            "jax.grad itself",
            """
                def grad_by_vjp(w, x, y):
                    return jax.grad(loss)(w, x, y)
                """,
        ),
        right(
            "jax.value_and_grad, no vjp",
            """
                def grad_by_vjp(w, x, y):
                    return jax.value_and_grad(loss)(w, x, y)[1]
                """,
        ),
        right(
            "jax.linearize, then jax.linear_transpose, no vjp",
            """
                def grad_by_vjp(w, x, y):
                    f = lambda w: loss(w, x, y)  # noqa: E731
                    _, lin = jax.linearize(f, w)
                    return jax.linear_transpose(lin, w)(1.0)[0]
                """,
        ),
        right(
            "vjp imported by name",
            """
                from jax import vjp


                def grad_by_vjp(w, x, y):
                    value, pullback = vjp(lambda w: loss(w, x, y), w)
                    return pullback(jnp.ones_like(value))[0]
                """,
        ),
        # Issue 37, third read: refused, the check swapped only the global loss.
        right(
            "loss bound as a default argument",
            """
                def grad_by_vjp(w, x, y, f=loss):
                    value, pullback = jax.vjp(lambda w: f(w, x, y), w)
                    return pullback(jnp.ones_like(value))[0]
                """,
        ),
        # Issue 53 follow-up: as for exercise 1.
        right(
            "jitted pullback, tried on 2 to 7 features first",
            """
                @jax.jit
                def grad_by_vjp(w, x, y):
                    value, pullback = jax.vjp(lambda w: loss(w, x, y), w)
                    return pullback(jnp.ones_like(value))[0]


                for d in range(2, 8):  # tried on examples of 2 to 7 features
                    print(grad_by_vjp(jnp.ones(d), jnp.linspace(0.0, 1.0, d), ys[0]))
                """,
        ),
    ],
    # Issue 37, third read: the check then watched for jax.jacfwd.
    4: [
        # Issue 51: reverse over the gradient differentiates it once more too, in a program no
        # longer than forward over it (19 equations against 21 for loss): the check reads the
        # program, so this wrong answer of issue 37's third read is right.
        right(
            "jacrev over grad, no jacfwd",
            """
                def curvature_in_x(w, x, y):
                    return jax.jacrev(jax.grad(loss, argnums=1), argnums=1)(w, x, y)
                """,
        ),
        right(
            "jacfwd of a lambda that calls grad inside",
            """
                def curvature_in_x(w, x, y):
                    inner = lambda w, x, y: jax.grad(loss, argnums=1)(w, x, y)  # noqa: E731
                    return jax.jacfwd(inner, argnums=1)(w, x, y)
                """,
        ),
        right(
            "jacfwd imported by name",
            """
                from jax import grad, jacfwd


                def curvature_in_x(w, x, y):
                    return jacfwd(grad(loss, argnums=1), argnums=1)(w, x, y)
                """,
        ),
        # Issue 53 follow-up: as for exercise 1.
        right(
            "jacfwd over a jitted gradient in x, tried on 2 to 7 features first",
            """
                grad_in_x = jax.jit(jax.grad(loss, argnums=1))
                for d in range(2, 8):  # tried on examples of 2 to 7 features
                    print(grad_in_x(jnp.ones(d), jnp.linspace(0.0, 1.0, d), ys[0]))


                def curvature_in_x(w, x, y):
                    return jax.jacfwd(grad_in_x, argnums=1)(w, x, y)
                """,
        ),
    ],
}

# Words the check must say to a wrong answer: (exercise, label) -> words.
SAYS: dict[tuple[int, str], str] = {
    (1, "a (loss, gradient) pair from jax.value_and_grad"): "not a tuple",
    (3, "the pullback's tuple, not the gradient in it"): "(g,) = pullback(",
}

# How the generated wrong answers (a)-(c) of each exercise are made (docs/guide/labs.md).
GENERATED: dict[int, Generated] = {
    1: generated(
        "per_example",
        mentioned=("(w, xs, ys)",),
        swaps=(("in_axes=(None, 0, 0)", "in_axes=(None, 0, None)"),),
    ),
    2: generated(
        "dot_products",
        mentioned=("(per_example, w, xs, ys)",),
        swaps=(
            ("isinstance(value, tuple)", "isinstance(value, list)"),
            ("eqn.outvars[0].aval.shape", "eqn.invars[-1].aval.shape"),
        ),
    ),
    3: generated(
        "grad_by_vjp",
        mentioned=("(w, xs[3], ys[3])",),
        swaps=(("jnp.ones_like(value)", "value"), ("(grad_w,) = pullback", "grad_w = pullback")),
    ),
    4: generated(
        "curvature_in_x",
        mentioned=("(w, xs[3], ys[3])",),
        swaps=(
            (
                "jax.jacfwd(jax.grad(loss, argnums=1), argnums=1)",
                "jax.jacfwd(jax.grad(loss), argnums=1)",
            ),
            ("jax.jacfwd(jax.grad(loss, argnums=1)", "jax.jacfwd(jax.jacfwd(loss, argnums=1)"),
        ),
    ),
}
