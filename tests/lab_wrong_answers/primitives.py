"""The primitives lab (docs/labs/primitives.ipynb): its wrong answers, its other right
answers, the words its checks must say, and how its generated wrong answers are made."""

from __future__ import annotations

from ._table import Generated, Reads, Right, Wrong, generated, right, wrong

LAB = "primitives"

# The wrong answers each read found passing, by read (the package's READS says which).
READS: Reads = {
    "REVIEWED": {
        1: [
            wrong(
                "names that start with bcoo or bcsr, no census",
                "skips-technique",
                """
                def new_in_jaxpr(f, *args):
                    names = {e.primitive.name for e in jax.make_jaxpr(f)(*args).jaxpr.eqns}
                    return sorted(n for n in names if n.startswith(("bcoo", "bcsr")))
                """,
            ),
            wrong(
                "a hard-coded set of sparse names, no census",
                "constant",
                """
                SPARSE = {"bcoo_dot_general", "bcsr_dot_general", "bcoo_todense", "bcsr_todense"}


                def new_in_jaxpr(f, *args):
                    names = {e.primitive.name for e in jax.make_jaxpr(f)(*args).jaxpr.eqns}
                    return sorted(names & SPARSE)
                """,
            ),
        ],
    },
    "THIRD_READ": {
        1: [
            wrong(
                "names jax.lax does not export as NAME_p, no census",
                "skips-technique",
                """
                def new_in_jaxpr(f, *args):
                    names = {e.primitive.name for e in jax.make_jaxpr(f)(*args).jaxpr.eqns}
                    return sorted(n for n in names if not hasattr(jax.lax, n + "_p"))
                """,
            ),
            wrong(
                "names jax.extend.core.primitives does not export, no census",
                "skips-technique",
                """
                import jax.extend.core.primitives as exported


                def new_in_jaxpr(f, *args):
                    known = {
                        getattr(exported, a).name
                        for a in dir(exported)
                        if a.endswith("_p") and hasattr(getattr(exported, a), "name")
                    }
                    names = {e.primitive.name for e in jax.make_jaxpr(f)(*args).jaxpr.eqns}
                    return sorted(names - known)
                """,
            ),
        ],
        3: [
            wrong(
                "a type rule with the dtype typed in: float32 whatever the input",
                "skips-technique",
                """
                def stack2_impl(x):
                    return jnp.stack([x, 2 * x])


                def stack2_abstract(aval):
                    return jax.core.ShapedArray((2, *aval.shape), jnp.float32)
                """,
            ),
        ],
    },
    "ISSUE_51": {
        2: [
            wrong(
                "a walker that opens only jaxpr and branches: while bodies missed",
                "skips-technique",
                """
                def primitives_of(f, *args):
                    names = set()

                    def walk(jaxpr):
                        for eqn in jaxpr.eqns:
                            names.add(eqn.primitive.name)
                            for key in ("jaxpr", "branches"):
                                param = eqn.params.get(key)
                                for sub in param if isinstance(param, (tuple, list)) else [param]:
                                    inner = getattr(sub, "jaxpr", sub)
                                    if hasattr(inner, "eqns"):
                                        walk(inner)

                    walk(jax.make_jaxpr(f)(*args).jaxpr)
                    return names
                """,
            ),
        ],
        3: [
            wrong(
                "the old worked solution: a fresh ShapedArray drops the weak type",
                "skips-technique",
                """
                def stack2_impl(x):
                    return jnp.stack([x, 2 * x])


                def stack2_abstract(aval):
                    return jax.core.ShapedArray((2, *aval.shape), aval.dtype)
                """,
            ),
        ],
    },
}

# Further wrong answers of each kind, for each exercise.
OTHERS: dict[int, list[Wrong]] = {
    1: [
        wrong(
            "the sparse product's primitive, typed in",
            "constant",
            """
                def new_in_jaxpr(f, *args):
                    return ["bcoo_dot_general"]
                """,
        ),
        wrong(
            "a name pattern in place of the census",
            "skips-technique",
            """
                def new_in_jaxpr(f, *args):
                    names = {e.primitive.name for e in jax.make_jaxpr(f)(*args).jaxpr.eqns}
                    return sorted(name for name in names if name.startswith("bcoo_"))
                """,
        ),
        wrong(
            "this kernel's primitives, sparse imported already: right only with nothing new",
            "uniform-only",
            """
                import gc


                def new_in_jaxpr(f, *args):
                    here = {p.name for p in gc.get_objects() if isinstance(p, Primitive)}
                    eqns = jax.make_jaxpr(f)(*args).jaxpr.eqns
                    return sorted({e.primitive.name for e in eqns} - here)
                """,
        ),
    ],
    2: [
        wrong(
            "the check's program's set, typed in",
            "constant",
            """
                def primitives_of(f, *args):
                    return {"cond", "cos", "exp", "gt", "jit", "reduce_sum", "sin"}
                """,
        ),
        wrong(
            "top level only",
            "skips-technique",
            """
                def primitives_of(f, *args):
                    return {e.primitive.name for e in jax.make_jaxpr(f)(*args).jaxpr.eqns}
                """,
        ),
        wrong(
            "opens only params named jaxpr",
            "uniform-only",
            """
                def primitives_of(f, *args):
                    names = set()

                    def walk(jaxpr):
                        for eqn in jaxpr.eqns:
                            names.add(eqn.primitive.name)
                            if "jaxpr" in eqn.params:
                                walk(eqn.params["jaxpr"].jaxpr)

                    walk(jax.make_jaxpr(f)(*args).jaxpr)
                    return names
                """,
        ),
    ],
    3: [
        wrong(
            "the type for three numbers, typed in",
            "constant",
            """
                def stack2_impl(x):
                    return jnp.stack([x, 2 * x])


                def stack2_abstract(aval):
                    return jax.core.ShapedArray((2, 3), aval.dtype)
                """,
        ),
        wrong(
            "the input's type unchanged, as for an elementwise primitive",
            "skips-technique",
            """
                def stack2_impl(x):
                    return jnp.stack([x, 2 * x])


                def stack2_abstract(aval):
                    return aval
                """,
        ),
        wrong(
            "x + 1 for 2 * x: right on all-ones x",
            "uniform-only",
            """
                def stack2_impl(x):
                    return jnp.stack([x, x + 1])


                def stack2_abstract(aval):
                    return jax.core.ShapedArray((2, *aval.shape), aval.dtype)
                """,
        ),
        wrong(
            "the type read as the input's",
            "constant",
            """
                def stack2_impl(x):
                    return jnp.stack([x, 2 * x])


                def stack2_abstract(aval):
                    return jax.core.ShapedArray(aval.shape, aval.dtype)
                """,
        ),
    ],
}

# Correct answers the worked solution does not write: each must get "correct".
RIGHT: dict[int, list[Right]] = {
    1: [
        right(
            "walks the nested jaxprs too",
            """
                def new_in_jaxpr(f, *args):
                    names, todo = set(), [jax.make_jaxpr(f)(*args).jaxpr]
                    while todo:
                        for eqn in todo.pop().eqns:
                            names.add(eqn.primitive.name)
                            inner = [getattr(p, "jaxpr", p) for p in eqn.params.values()]
                            todo.extend(j for j in inner if hasattr(j, "eqns"))
                    return sorted(names.difference(census()))
                """,
        ),
    ],
    3: [
        right(
            "the type rule by aval.update",
            """
                def stack2_impl(x):
                    return jnp.stack([x, 2 * x])


                def stack2_abstract(aval):
                    return aval.update(shape=(2, *aval.shape))
                """,
        ),
    ],
}

# Words the check must say to a wrong answer: (exercise, label) -> words.
SAYS: dict[tuple[int, str], str] = {}

# How the generated wrong answers (a)-(c) of each exercise are made (docs/guide/labs.md).
GENERATED: dict[int, Generated] = {
    1: generated(
        "new_in_jaxpr",
        mentioned=(
            "(lambda m, v: m @ v, sparse.BCOO.fromdense(jnp.array([[1.0, 0.0, 2.0], "
            "[0.0, 3.0, 0.0]])), jnp.arange(3.0))",
        ),
        swaps=(("jaxpr.eqns} - base)", "jaxpr.eqns})"),),
    ),
    2: generated(
        "primitives_of",
        mentioned=("(_program, jnp.arange(3.0))",),
        swaps=(
            ("param if isinstance(param, (tuple, list)) else [param]", "[param]"),
            ("walk(inner)", "names.update(e.primitive.name for e in inner.eqns)"),
        ),
    ),
    3: generated(
        "stack2_abstract",
        mentioned=("(jax.typeof(jnp.arange(3.0)),)",),
        swaps=(
            (
                "aval.update(shape=(2, *aval.shape))",
                "jax.core.ShapedArray((2, *aval.shape), aval.dtype)",
            ),
            ("jnp.stack([x, 2 * x])", "jnp.concatenate([x, 2 * x])"),
        ),
    ),
}
