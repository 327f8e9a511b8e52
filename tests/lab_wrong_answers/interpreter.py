"""The interpreter lab (docs/labs/interpreter.ipynb): its wrong answers, its other right
answers, the words its checks must say, and how its generated wrong answers are made."""

from __future__ import annotations

from ._table import Generated, Reads, Right, Wrong, generated, right, wrong

LAB = "interpreter"

# The wrong answers each read found passing, by read (the package's READS says which).
READS: Reads = {
    "ISSUE_51": {
        2: [
            wrong(
                "jax.core.eval_jaxpr, and the shapes read from a re-trace: no evaluator of its own",
                "skips-technique",
                """
                def run_and_watch(jaxpr, consts, *args):
                    outs = jax.core.eval_jaxpr(jaxpr, consts, *args)
                    again = jax.make_jaxpr(lambda *a: jax.core.eval_jaxpr(jaxpr, consts, *a))(*args)
                    seen = [
                        (e.primitive.name, tuple(e.outvars[0].aval.shape)) for e in again.jaxpr.eqns
                    ]
                    return outs, seen
                """,
            ),
        ],
    },
    "ISSUE_36": {
        2: [
            wrong(
                "eval_jaxpr, then the equations read from their types",
                "skips-technique",
                """
                def run_and_watch(jaxpr, consts, *args):
                    return jax.core.eval_jaxpr(jaxpr, consts, *args), [
                        (e.primitive.name, e.outvars[0].aval.shape) for e in jaxpr.eqns
                    ]
                """,
            ),
            wrong(
                "binds each equation with its raw params: breaks on jax.nn.relu",
                "skips-technique",
                """
                def run_and_watch(jaxpr, consts, *args):
                    env, seen = dict(zip(jaxpr.constvars, consts)), []
                    env.update(zip(jaxpr.invars, args))
                    for eqn in jaxpr.eqns:
                        ins = [read(env, a) for a in eqn.invars]
                        outs = eqn.primitive.bind(*ins, **eqn.params)
                        outs = outs if eqn.primitive.multiple_results else [outs]
                        seen.append((eqn.primitive.name, tuple(outs[0].shape)))
                        env.update(zip(eqn.outvars, outs))
                    return [read(env, a) for a in jaxpr.outvars], seen
                """,
            ),
        ],
    },
    "REVIEWED": {
        3: [
            wrong(
                "looks in WITH_CONSTANT before the rules it is given",
                "skips-technique",
                """
                def plan(f, x, rules):
                    def table(name):
                        if name in WITH_CONSTANT:
                            return "WITH_CONSTANT"
                        return "RULES" if name in rules else "missing"

                    eqns = reversed(jax.make_jaxpr(f)(x).jaxpr.eqns)
                    return [(eqn.primitive.name, table(eqn.primitive.name)) for eqn in eqns]


                more_rules = {**RULES, "sqrt": lambda y: y**2, "log1p": lambda y: jnp.expm1(y)}
                """,
            ),
        ],
    },
    "THIRD_READ": {
        1: [
            wrong(
                "a census read off the printed jaxpr with a regex, not its equations",
                "skips-technique",
                """
                import re
                from collections import Counter


                def census(f, *args):
                    jaxpr = jax.make_jaxpr(f)(*args).jaxpr
                    found = Counter(re.findall(r"= ([a-z_]+)[\\[ \\n]", str(jaxpr)))
                    return dict(sorted(found.items()))
                """,
            ),
        ],
    },
    "CONFIRMATION_READ": {
        1: [
            wrong(
                "a census read off the printed jaxpr with a regex that allows digits",
                "skips-technique",
                """
                import re
                from collections import Counter


                def census(f, *args):
                    jaxpr = jax.make_jaxpr(f)(*args).jaxpr
                    found = Counter(re.findall(r"= ([a-z_0-9]+)[\\[ \\n]", str(jaxpr)))
                    return dict(sorted(found.items()))
                """,
            ),
            wrong(
                "walks every param that holds a jaxpr: counts a custom_jvp_call's body too",
                "skips-technique",
                """
                def census(f, *args):
                    jaxpr = jax.make_jaxpr(f)(*args).jaxpr
                    counts = {}

                    def walk(program):
                        for eqn in program.eqns:
                            name = eqn.primitive.name
                            counts[name] = counts.get(name, 0) + 1
                            for param in eqn.params.values():
                                inner = getattr(param, "jaxpr", None)
                                if inner is not None and hasattr(inner, "eqns"):
                                    walk(inner)

                    walk(jaxpr)
                    return {name: counts[name] for name in sorted(counts)}
                """,
            ),
        ],
        2: [
            wrong(
                "never binds consts: right on jaxprs without constants",
                "skips-technique",
                """
                def run_and_watch(jaxpr, consts, *args):
                    env, seen = dict(zip(jaxpr.invars, args)), []
                    for eqn in jaxpr.eqns:
                        ins = [read(env, a) for a in eqn.invars]
                        params = eqn.primitive.get_bind_params(eqn.params)
                        outs = eqn.primitive.bind(*ins, **params)
                        outs = outs if eqn.primitive.multiple_results else [outs]
                        seen.append((eqn.primitive.name, tuple(outs[0].shape)))
                        env.update(zip(eqn.outvars, outs))
                    return [read(env, a) for a in jaxpr.outvars], seen
                """,
            ),
            wrong(
                "binds consts as the first inputs, not to the constvars",
                "skips-technique",
                """
                def run_and_watch(jaxpr, consts, *args):
                    env, seen = dict(zip(jaxpr.invars, [*consts, *args])), []
                    env.update(zip(jaxpr.constvars, consts))
                    for eqn in jaxpr.eqns:
                        ins = [read(env, a) for a in eqn.invars]
                        params = eqn.primitive.get_bind_params(eqn.params)
                        outs = eqn.primitive.bind(*ins, **params)
                        outs = outs if eqn.primitive.multiple_results else [outs]
                        seen.append((eqn.primitive.name, tuple(outs[0].shape)))
                        env.update(zip(eqn.outvars, outs))
                    return [read(env, a) for a in jaxpr.outvars], seen
                """,
            ),
        ],
        3: [
            wrong(
                "a dict of names: drops a primitive met twice",
                "skips-technique",
                """
                def plan(f, x, rules):
                    def table(n):
                        if n in rules:
                            return "RULES"
                        return "WITH_CONSTANT" if n in WITH_CONSTANT else "missing"

                    eqns = reversed(jax.make_jaxpr(f)(x).jaxpr.eqns)
                    return list({e.primitive.name: table(e.primitive.name) for e in eqns}.items())


                more_rules = {**RULES, "sqrt": lambda y: y**2, "log1p": lambda y: jnp.expm1(y)}
                """,
            ),
            wrong(
                "groupby: merges a primitive met twice in a row",
                "skips-technique",
                """
                from itertools import groupby


                def plan(f, x, rules):
                    def table(n):
                        if n in rules:
                            return "RULES"
                        return "WITH_CONSTANT" if n in WITH_CONSTANT else "missing"

                    names = [e.primitive.name for e in reversed(jax.make_jaxpr(f)(x).jaxpr.eqns)]
                    return [(n, table(n)) for n, _ in groupby(names)]


                more_rules = {**RULES, "sqrt": lambda y: y**2, "log1p": lambda y: jnp.expm1(y)}
                """,
            ),
        ],
    },
    "CONFIRMATION_READ_FG": {
        1: [
            wrong(
                "each nested body walked once, by identity: a jaxpr called twice counts once",
                "uniform-only",
                """
                def census(f, *args):
                    jaxpr = jax.make_jaxpr(f)(*args).jaxpr
                    counts, done = {}, set()

                    def walk(program):
                        for eqn in program.eqns:
                            counts[eqn.primitive.name] = counts.get(eqn.primitive.name, 0) + 1
                            body = eqn.params.get("jaxpr")
                            if body is not None and id(body) not in done:
                                done.add(id(body))
                                walk(body.jaxpr)

                    walk(jaxpr)
                    return dict(sorted(counts.items()))
                """,
            ),
        ],
        2: [
            wrong(
                "only the first output returned",
                "uniform-only",
                """
                def run_and_watch(jaxpr, consts, *args):
                    env, seen = dict(zip(jaxpr.constvars, consts)), []
                    env.update(zip(jaxpr.invars, args))
                    for eqn in jaxpr.eqns:
                        params = eqn.primitive.get_bind_params(eqn.params)
                        outs = eqn.primitive.bind(*[read(env, a) for a in eqn.invars], **params)
                        outs = outs if eqn.primitive.multiple_results else [outs]
                        seen.append((eqn.primitive.name, tuple(outs[0].shape)))
                        env.update(zip(eqn.outvars, outs))
                    return [read(env, jaxpr.outvars[0])], seen
                """,
            ),
        ],
    },
    "FINAL_READ_IJ": {
        1: [
            wrong(
                "counts each output of an equation, not each equation",
                "skips-technique",
                """
                from collections import Counter


                def census(f, *args):
                    jaxpr = jax.make_jaxpr(f)(*args).jaxpr
                    counts = Counter()

                    def walk(program):
                        for eqn in program.eqns:
                            for _ in eqn.outvars:
                                counts[eqn.primitive.name] += 1
                            if "jaxpr" in eqn.params:
                                walk(eqn.params["jaxpr"].jaxpr)

                    walk(jaxpr)
                    return dict(sorted(counts.items()))
                """,
            ),
        ],
        2: [
            wrong(
                "reads its outputs with env[v], which a literal output is not in",
                "skips-technique",
                """
                def run_and_watch(jaxpr, consts, *args):
                    env, seen = dict(zip(jaxpr.constvars, consts)), []
                    env.update(zip(jaxpr.invars, args))
                    for eqn in jaxpr.eqns:
                        params = eqn.primitive.get_bind_params(eqn.params)
                        outs = eqn.primitive.bind(*[read(env, a) for a in eqn.invars], **params)
                        outs = outs if eqn.primitive.multiple_results else [outs]
                        seen.append((eqn.primitive.name, tuple(outs[0].shape)))
                        env.update(zip(eqn.outvars, outs))
                    return [env[v] for v in jaxpr.outvars], seen
                """,
            ),
            wrong(
                "inlines a jit equation's body instead of binding it",
                "skips-technique",
                """
                def run_and_watch(jaxpr, consts, *args):
                    seen = []

                    def evaluate(program, values, inputs):
                        env = dict(zip(program.constvars, values))
                        env.update(zip(program.invars, inputs))
                        for eqn in program.eqns:
                            ins = [read(env, a) for a in eqn.invars]
                            if eqn.primitive.name == "jit":
                                body = eqn.params["jaxpr"]
                                outs = evaluate(body.jaxpr, body.consts, ins)
                            else:
                                params = eqn.primitive.get_bind_params(eqn.params)
                                outs = eqn.primitive.bind(*ins, **params)
                                outs = outs if eqn.primitive.multiple_results else [outs]
                                seen.append((eqn.primitive.name, tuple(outs[0].shape)))
                            env.update(zip(eqn.outvars, outs))
                        return [read(env, v) for v in program.outvars]

                    return evaluate(jaxpr, consts, args), seen
                """,
            ),
        ],
        3: [
            wrong(
                "adds the missing rules to the start cell's RULES in place",
                "skips-technique",
                """
                def plan(f, x, rules):
                    def table(name):
                        if name in rules:
                            return "RULES"
                        return "WITH_CONSTANT" if name in WITH_CONSTANT else "missing"

                    eqns = jax.make_jaxpr(f)(x).jaxpr.eqns
                    return [(e.primitive.name, table(e.primitive.name)) for e in reversed(eqns)]


                # (the runner's namespace is a shallow copy: the copy keeps the real RULES intact)
                RULES = dict(RULES)
                RULES.update({"sqrt": lambda y: y**2, "log1p": jnp.expm1})
                more_rules = RULES
                """,
            ),
        ],
    },
    "LAST_READ_K": {
        3: [
            wrong(
                "a plan that flattens jit bodies, as the census of Exercise 1 does",
                "skips-technique",
                """
                def plan(f, x, rules):
                    def table(name):
                        if name in rules:
                            return "RULES"
                        return "WITH_CONSTANT" if name in WITH_CONSTANT else "missing"

                    def flat(program):
                        names = []
                        for eqn in program.eqns:
                            if "jaxpr" in eqn.params:
                                names += flat(eqn.params["jaxpr"].jaxpr)
                            else:
                                names.append(eqn.primitive.name)
                        return names

                    return [(n, table(n)) for n in reversed(flat(jax.make_jaxpr(f)(x).jaxpr))]


                more_rules = {**RULES, "sqrt": lambda y: y**2, "log1p": jnp.expm1}
                """,
            ),
            wrong(
                "a plan that traces at 1.0, not at the x it is given",
                "uniform-only",
                """
                def plan(f, x, rules):
                    def table(name):
                        if name in rules:
                            return "RULES"
                        return "WITH_CONSTANT" if name in WITH_CONSTANT else "missing"

                    eqns = jax.make_jaxpr(f)(1.0).jaxpr.eqns
                    return [(e.primitive.name, table(e.primitive.name)) for e in reversed(eqns)]


                more_rules = {**RULES, "sqrt": lambda y: y**2, "log1p": jnp.expm1}
                """,
            ),
            wrong(
                "more_rules undoes every product as f's, dividing by 3",
                "constant",
                """
                def plan(f, x, rules):
                    def table(name):
                        if name in rules:
                            return "RULES"
                        return "WITH_CONSTANT" if name in WITH_CONSTANT else "missing"

                    eqns = jax.make_jaxpr(f)(x).jaxpr.eqns
                    return [(e.primitive.name, table(e.primitive.name)) for e in reversed(eqns)]


                more_rules = {
                    **RULES,
                    "sqrt": lambda y: y**2,
                    "log1p": jnp.expm1,
                    "mul": lambda y: y / 3.0,
                }
                """,
            ),
            wrong(
                "more_rules holds only the two missing rules, not RULES with them",
                "skips-technique",
                """
                def plan(f, x, rules):
                    def table(name):
                        if name in rules:
                            return "RULES"
                        return "WITH_CONSTANT" if name in WITH_CONSTANT else "missing"

                    eqns = jax.make_jaxpr(f)(x).jaxpr.eqns
                    return [(e.primitive.name, table(e.primitive.name)) for e in reversed(eqns)]


                more_rules = {"sqrt": lambda y: y**2, "log1p": jnp.expm1}
                """,
            ),
            wrong(
                "RULES retyped by hand, its log and neg left out",
                "skips-technique",
                """
                def plan(f, x, rules):
                    def table(name):
                        if name in rules:
                            return "RULES"
                        return "WITH_CONSTANT" if name in WITH_CONSTANT else "missing"

                    eqns = jax.make_jaxpr(f)(x).jaxpr.eqns
                    return [(e.primitive.name, table(e.primitive.name)) for e in reversed(eqns)]


                more_rules = {
                    "exp": jnp.log,
                    "tanh": jnp.arctanh,
                    "sqrt": lambda y: y**2,
                    "log1p": jnp.expm1,
                }
                """,
            ),
            wrong(
                "RULES with a neg rule that leaves its value as it is",
                "constant",
                """
                def plan(f, x, rules):
                    def table(name):
                        if name in rules:
                            return "RULES"
                        return "WITH_CONSTANT" if name in WITH_CONSTANT else "missing"

                    eqns = jax.make_jaxpr(f)(x).jaxpr.eqns
                    return [(e.primitive.name, table(e.primitive.name)) for e in reversed(eqns)]


                more_rules = {**RULES, "neg": lambda y: y}
                more_rules.update({"sqrt": lambda y: y**2, "log1p": jnp.expm1})
                """,
            ),
        ],
    },
}

# Further wrong answers of each kind, for each exercise.
OTHERS: dict[int, list[Wrong]] = {
    1: [
        wrong(
            "the check's counts, typed in",
            "constant",
            """
                def census(f, *args):
                    jaxpr = jax.make_jaxpr(f)(*args).jaxpr
                    return {"add": 1, "cos": 1, "exp": 1, "jit": 1, "mul": 2, "reduce_sum": 1,
                            "sin": 1, "slice": 1, "squeeze": 1}
                """,
        ),
        wrong(
            "top level only",
            "skips-technique",
            """
                from collections import Counter


                def census(f, *args):
                    jaxpr = jax.make_jaxpr(f)(*args).jaxpr
                    return dict(sorted(Counter(e.primitive.name for e in jaxpr.eqns).items()))
                """,
        ),
        wrong(
            "each name counted once",
            "uniform-only",
            """
                def census(f, *args):
                    jaxpr = jax.make_jaxpr(f)(*args).jaxpr
                    names = set()

                    def walk(program):
                        for eqn in program.eqns:
                            names.add(eqn.primitive.name)
                            if "jaxpr" in eqn.params:
                                walk(eqn.params["jaxpr"].jaxpr)

                    walk(jaxpr)
                    return {name: 1 for name in sorted(names)}
                """,
        ),
    ],
    2: [
        wrong(
            "each output computed by jax.core.eval_jaxpr on the jaxpr cut at that equation",
            "skips-technique",
            """
                def run_and_watch(jaxpr, consts, *args):
                    seen = []
                    for eqn in jaxpr.eqns:
                        cut = jaxpr.replace(outvars=[eqn.outvars[0]])
                        (value,) = jax.core.eval_jaxpr(cut, consts, *args)
                        seen.append((eqn.primitive.name, tuple(value.shape)))
                    return jax.core.eval_jaxpr(jaxpr, consts, *args), seen
                """,
        ),
        wrong(
            "reads every literal as 1.0",
            "uniform-only",
            """
                def run_and_watch(jaxpr, consts, *args):
                    def value(env, a):
                        return 1.0 if isinstance(a, jex.core.Literal) else env[a]

                    env, seen = dict(zip(jaxpr.constvars, consts)), []
                    env.update(zip(jaxpr.invars, args))
                    for eqn in jaxpr.eqns:
                        params = eqn.primitive.get_bind_params(eqn.params)
                        outs = eqn.primitive.bind(*[value(env, a) for a in eqn.invars], **params)
                        outs = outs if eqn.primitive.multiple_results else [outs]
                        seen.append((eqn.primitive.name, tuple(outs[0].shape)))
                        env.update(zip(eqn.outvars, outs))
                    return [value(env, a) for a in jaxpr.outvars], seen
                """,
        ),
        wrong(
            "the check's answer for dense, typed in",
            "constant",
            """
                def run_and_watch(jaxpr, consts, *args):
                    w, b, x = args
                    seen = [("dot_general", (5, 4)), ("broadcast_in_dim", (1, 4)), ("add", (5, 4)),
                            ("max", (5, 4))]
                    return [jnp.maximum(x @ w + b, 0.0)], seen
                """,
        ),
    ],
    3: [
        wrong(
            "the plan of f, typed in",
            "constant",
            """
                def plan(f, x, rules):
                    return [("mul", "WITH_CONSTANT"), ("log1p", "missing"), ("sqrt", "missing")]


                more_rules = {**RULES, "sqrt": lambda y: y**2, "log1p": jnp.expm1}
                """,
        ),
        wrong(
            "the equations in the jaxpr's order, not the inverter's",
            "skips-technique",
            """
                def plan(f, x, rules):
                    def table(name):
                        if name in rules:
                            return "RULES"
                        return "WITH_CONSTANT" if name in WITH_CONSTANT else "missing"

                    eqns = jax.make_jaxpr(f)(x).jaxpr.eqns
                    return [(e.primitive.name, table(e.primitive.name)) for e in eqns]


                more_rules = {**RULES, "sqrt": lambda y: y**2, "log1p": jnp.expm1}
                """,
        ),
        wrong(
            "looks up the start cell's RULES, not the rules given: right only for RULES",
            "uniform-only",
            """
                def plan(f, x, rules):
                    def table(name):
                        if name in RULES:
                            return "RULES"
                        return "WITH_CONSTANT" if name in WITH_CONSTANT else "missing"

                    eqns = jax.make_jaxpr(f)(x).jaxpr.eqns
                    return [(e.primitive.name, table(e.primitive.name)) for e in reversed(eqns)]


                more_rules = {**RULES, "sqrt": lambda y: y**2, "log1p": jnp.expm1}
                """,
        ),
        wrong(
            "log1p undone by exp",
            "skips-technique",
            """
                def plan(f, x, rules):
                    def table(name):
                        if name in rules:
                            return "RULES"
                        return "WITH_CONSTANT" if name in WITH_CONSTANT else "missing"

                    eqns = jax.make_jaxpr(f)(x).jaxpr.eqns
                    return [(e.primitive.name, table(e.primitive.name)) for e in reversed(eqns)]


                more_rules = {**RULES, "sqrt": lambda y: y**2, "log1p": lambda y: jnp.exp(y)}
                """,
        ),
        wrong(
            "sqrt undone by abs: right where y is 1",
            "uniform-only",
            """
                def plan(f, x, rules):
                    def table(name):
                        if name in rules:
                            return "RULES"
                        return "WITH_CONSTANT" if name in WITH_CONSTANT else "missing"

                    eqns = jax.make_jaxpr(f)(x).jaxpr.eqns
                    return [(e.primitive.name, table(e.primitive.name)) for e in reversed(eqns)]


                more_rules = {**RULES, "sqrt": jnp.abs, "log1p": jnp.expm1}
                """,
        ),
        wrong(
            "log1p undone only near zero, as y",
            "uniform-only",
            """
                def plan(f, x, rules):
                    def table(name):
                        if name in rules:
                            return "RULES"
                        return "WITH_CONSTANT" if name in WITH_CONSTANT else "missing"

                    eqns = jax.make_jaxpr(f)(x).jaxpr.eqns
                    return [(e.primitive.name, table(e.primitive.name)) for e in reversed(eqns)]


                more_rules = {**RULES, "sqrt": lambda y: y**2, "log1p": lambda y: y}
                """,
        ),
    ],
}

# Correct answers the worked solution does not write: each must get "correct".
RIGHT: dict[int, list[Right]] = {
    1: [
        right(
            "a recursive census that adds up the counts of each nested body",
            """
                from collections import Counter


                def census(f, *args):
                    def count(jaxpr):
                        found = Counter()
                        for eqn in jaxpr.eqns:
                            found[eqn.primitive.name] += 1
                            if "jaxpr" in eqn.params:
                                found += count(eqn.params["jaxpr"].jaxpr)
                        return found

                    return dict(sorted(count(jax.make_jaxpr(f)(*args).jaxpr).items()))
                """,
        ),
    ],
    2: [
        right(
            "outputs as a tuple, shapes with jnp.shape, a write helper",
            """
                def run_and_watch(jaxpr, consts, *args):
                    env, seen = {}, []

                    def write(names, vals):
                        for name, val in zip(names, vals, strict=True):
                            env[name] = val

                    write(jaxpr.constvars, consts)
                    write(jaxpr.invars, args)
                    for eqn in jaxpr.eqns:
                        ins = [read(env, a) for a in eqn.invars]
                        got = eqn.primitive.bind(*ins, **eqn.primitive.get_bind_params(eqn.params))
                        got = list(got) if eqn.primitive.multiple_results else [got]
                        seen.append((eqn.primitive.name, jnp.shape(got[0])))
                        write(eqn.outvars, got)
                    return tuple(read(env, a) for a in jaxpr.outvars), seen
                """,
        ),
    ],
    3: [
        right(
            "the equations sliced backwards, more_rules merged with |",
            """
                def plan(f, x, rules):
                    names = [e.primitive.name for e in jax.make_jaxpr(f)(x).jaxpr.eqns[::-1]]
                    tables = [(rules, "RULES"), (WITH_CONSTANT, "WITH_CONSTANT")]
                    return [(n, next((t for d, t in tables if n in d), "missing")) for n in names]


                more_rules = RULES | {"sqrt": jnp.square, "log1p": jnp.expm1}
                """,
        ),
    ],
}

# Words the check must say to a wrong answer: (exercise, label) -> words.
SAYS: dict[tuple[int, str], str] = {}

# How the generated wrong answers (a)-(c) of each exercise are made (docs/guide/labs.md).
GENERATED: dict[int, Generated] = {
    1: generated(
        "census",
        mentioned=("(sample, jnp.arange(3.0))",),
        swaps=(
            ("counts[eqn.primitive.name] += 1", "counts[eqn.primitive.name] = 1"),
            ('walk(eqn.params["jaxpr"].jaxpr)', "pass"),
        ),
    ),
    2: generated(
        "run_and_watch",
        mentioned=(
            "(jax.make_jaxpr(dense)(jnp.ones((3, 4)), jnp.zeros(4), jnp.ones((5, 3))).jaxpr, [], "
            "jnp.ones((3, 4)), jnp.zeros(4), jnp.ones((5, 3)))",
        ),
        swaps=(
            ("tuple(outs[0].shape)", "tuple(eqn.outvars[0].aval.shape)"),
            ("eqn.primitive.get_bind_params(eqn.params)", "dict(eqn.params)"),
        ),
    ),
    3: generated(
        "plan",
        mentioned=("(lambda x: jnp.log1p(jnp.sqrt(x)) * 3.0, jnp.array([0.25, 4.0]), RULES)",),
        swaps=(("reversed(eqns)", "eqns"), ("if name in rules:", "if name in RULES:")),
    ),
}
