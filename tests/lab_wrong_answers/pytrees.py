"""The pytrees lab (docs/labs/pytrees.ipynb): its wrong answers, its other right
answers, the words its checks must say, and how its generated wrong answers are made."""

from __future__ import annotations

from ._table import Generated, Reads, Right, Wrong, generated, wrong

LAB = "pytrees"

# The wrong answers each read found passing, by read (the package's READS says which).
READS: Reads = {
    "ISSUE_36": {
        4: [
            wrong(
                "a list comprehension, no tree.map or is_leaf",
                "skips-technique",
                """
                def make_zeros(shapes):
                    return [jnp.zeros(s) for s in shapes]
                """,
            ),
        ],
    },
    "ISSUE_51": {
        2: [
            wrong(
                "a string for a bool",
                "constant",
                """
                predicted_binders = 3
                tuple_changes_jaxpr = "yes"
                tuple_changes_treedef = True
                """,
            ),
        ],
    },
}

# Further wrong answers of each kind, for each exercise.
OTHERS: dict[int, list[Wrong]] = {
    # Exercises 1 and 2 were predictions (a count, then True or False) until issue 51 made each
    # a function; each old wrong guess is kept as the code that makes the same mistake.
    1: [
        wrong(
            "the state's paths typed in",
            "constant",
            """
            def leaf_paths(tree):
                return ["['step']", "['weights'][0]", "['weights'][1]"]
            """,
        ),
        wrong(
            "None counted as a leaf",
            "skips-technique",
            """
            def leaf_paths(tree):
                flat, _ = jax.tree_util.tree_flatten_with_path(tree, is_leaf=lambda x: x is None)
                return [jax.tree_util.keystr(path) for path, _ in flat]
            """,
        ),
        wrong(
            "a walk of its own, dict keys in the order they were written",
            "skips-technique",
            """
            def leaf_paths(tree, prefix=""):
                if tree is None:
                    return []
                if isinstance(tree, dict):
                    items = [(f"[{k!r}]", v) for k, v in tree.items()]
                elif isinstance(tree, (list, tuple)):
                    items = [(f"[{i}]", v) for i, v in enumerate(tree)]
                else:
                    return [prefix]
                return [p for k, v in items for p in leaf_paths(v, prefix + k)]
            """,
        ),
        wrong(
            "only the arrays",
            "uniform-only",
            """
            def leaf_paths(tree):
                flat, _ = jax.tree_util.tree_flatten_with_path(tree)
                return [
                    jax.tree_util.keystr(path) for path, leaf in flat if isinstance(leaf, jax.Array)
                ]
            """,
        ),
    ],
    2: [
        wrong(
            "only the used leaves",
            "constant",
            """
            def unused_leaves(f, tree):
                return ["['weights'][1]"]
            """,
        ),
        wrong(
            "the leaves whose change leaves the result unchanged, no jaxpr",
            "skips-technique",
            """
            def unused_leaves(f, tree):
                flat, treedef = jax.tree_util.tree_flatten_with_path(tree)
                leaves = [leaf for _, leaf in flat]
                before = jax.tree.leaves(f(tree))
                unused = []
                for i, (path, leaf) in enumerate(flat):
                    changed = list(leaves)
                    changed[i] = leaf + 1
                    after = jax.tree.leaves(f(jax.tree.unflatten(treedef, changed)))
                    if all(bool(jnp.array_equal(a, b)) for a, b in zip(before, after)):
                        unused.append(jax.tree_util.keystr(path))
                return unused
            """,
        ),
        wrong(
            "an output binder is not read",
            "skips-technique",
            """
            def unused_leaves(f, tree):
                jaxpr = jax.make_jaxpr(f)(tree).jaxpr
                read = {id(x) for eqn in jaxpr.eqns for x in eqn.invars}
                return [p for p, var in zip(leaf_paths(tree), jaxpr.invars) if id(var) not in read]
            """,
        ),
        wrong(
            "every leaf after the first",
            "uniform-only",
            """
            def unused_leaves(f, tree):
                return [p for p in leaf_paths(tree) if p.endswith("[1]")]
            """,
        ),
        wrong(
            "the tuple changes the jaxpr: a string for the answer",
            "constant",
            """
            def unused_leaves(f, tree):
                return "yes"
            """,
        ),
    ],
    3: [
        wrong(
            "a dataclass, not registered",
            "constant",
            """
                @dataclasses.dataclass
                class Layer:
                    w: jax.Array
                    b: jax.Array
                    name: str


                def make_layer(w, b, name):
                    return Layer(w=w, b=b, name=name)
                """,
        ),
        wrong(
            "name a leaf too",
            "skips-technique",
            """
                @jax.tree_util.register_dataclass
                @dataclasses.dataclass
                class Layer:
                    w: jax.Array
                    b: jax.Array
                    name: str


                def make_layer(w, b, name):
                    return Layer(w=w, b=b, name=name)
                """,
        ),
        wrong(
            "w filled with its first entry: right on a uniform w",
            "uniform-only",
            """
                @jax.tree_util.register_dataclass
                @dataclasses.dataclass
                class Layer:
                    w: jax.Array
                    b: jax.Array
                    name: str = dataclasses.field(metadata=dict(static=True))


                def make_layer(w, b, name):
                    return Layer(w=jnp.full_like(w, w.ravel()[0]), b=b, name=name)
                """,
        ),
    ],
    4: [
        wrong(
            "the check's list, typed in",
            "constant",
            """
                def make_zeros(shapes):
                    return [jnp.zeros((2, 3)), jnp.zeros((4,))]
                """,
        ),
        wrong(
            "is_leaf only for shapes of two numbers",
            "uniform-only",
            """
                def make_zeros(shapes):
                    return jax.tree.map(
                        jnp.zeros, shapes, is_leaf=lambda t: isinstance(t, tuple) and len(t) == 2
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
        "leaf_paths",
        mentioned=("(state,)",),
        swaps=(
            (
                "tree_flatten_with_path(tree)",
                "tree_flatten_with_path(tree, is_leaf=lambda x: x is None)",
            ),
        ),
    ),
    2: generated(
        "unused_leaves",
        mentioned=("(first_times_step, state)",),
        swaps=(
            ("    read |= {id(x) for x in jaxpr.outvars}\n", ""),
            ("for eqn in jaxpr.eqns for", "for eqn in jaxpr.eqns[:-1] for"),
        ),
    ),
    3: generated(
        "make_layer",
        mentioned=('(jnp.ones(2), jnp.zeros(2), "dense")',),
        swaps=(
            ("@jax.tree_util.register_dataclass\n", ""),
            ("dataclasses.field(metadata=dict(static=True))", "dataclasses.field()"),
        ),
    ),
    4: generated(
        "make_zeros",
        mentioned=("([(2, 3), (4,)],)", '({"w": (2, 3), "b": [(4,)]},)'),
        swaps=(
            ("jnp.zeros, shapes", "jnp.ones, shapes"),
            ("isinstance(t, tuple)\n", "isinstance(t, tuple) and len(t) > 0\n"),
        ),
    ),
}
