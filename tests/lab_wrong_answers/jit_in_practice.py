"""The jit-in-practice lab (docs/labs/jit-in-practice.ipynb): its wrong answers, its other right
answers, the words its checks must say, and how its generated wrong answers are made."""

from __future__ import annotations

from ._table import Generated, Reads, Right, Wrong, generated, right, wrong

LAB = "jit-in-practice"

# The wrong answers each read found passing, by read (the package's READS says which).
READS: Reads = {
    "ISSUE_36": {
        1: [
            wrong(
                "never calls f",
                "constant",
                """
                def time_it(f):
                    return 1.0
                """,
            ),
        ],
    },
    "REVIEWED": {
        # Issue 37, third read: the check set only upper bounds, so milliseconds passed.
        1: [
            wrong(
                "returns milliseconds, not seconds",
                "skips-technique",
                """
                def time_it(f):
                    start = time.perf_counter_ns()
                    jax.block_until_ready(f())
                    return (time.perf_counter_ns() - start) / 1e6
                """,
            ),
        ],
        # Exercise 2 set three variables until issue 51 made it a function, stages(fn, x); each
        # old answer is kept as the function that makes the same mistake.
        2: [
            wrong(
                "traced for another shape, lowered and compiled apart from it",
                "skips-technique",
                """
                def stages(fn, x):
                    traced = fn.trace(jnp.ones(7))
                    lowered = jax.jit(fn).lower(x)
                    return traced, lowered, lowered.compile()
                """,
            ),
            wrong(
                "traced for another shape, lowered from a second trace",
                "skips-technique",
                """
                def stages(fn, x):
                    traced = fn.trace(jnp.ones(7))
                    lowered = fn.trace(x).lower()
                    return traced, lowered, lowered.compile()
                """,
            ),
            # Issue 37: the check compared only compiled's numbers, so a Compiled of another
            # program that gives the same numbers passed.
            wrong(
                "compiled from a jit around fn, not from lowered",
                "skips-technique",
                """
                def stages(fn, x):
                    traced = fn.trace(x)
                    lowered = traced.lower()
                    return traced, lowered, jax.jit(lambda v: fn(v)).lower(x).compile()
                """,
            ),
            wrong(
                "compiled from a jit of a lambda around the function fn wraps, not from lowered",
                "skips-technique",
                """
                def stages(fn, x):
                    traced = fn.trace(x)
                    lowered = traced.lower()
                    compiled = jax.jit(lambda v: fn.__wrapped__(v)).trace(x).lower().compile()
                    return traced, lowered, compiled
                """,
            ),
        ],
    },
}

# Further wrong answers of each kind, for each exercise.
OTHERS: dict[int, list[Wrong]] = {
    1: [
        wrong(
            "no wait",
            "skips-technique",
            """
                def time_it(f):
                    start = time.perf_counter()
                    f()
                    return time.perf_counter() - start
                """,
        ),
        wrong(
            "waits only on a single array",
            "uniform-only",
            """
                def time_it(f):
                    start = time.perf_counter()
                    result = f()
                    if hasattr(result, "block_until_ready"):
                        result.block_until_ready()
                    return time.perf_counter() - start
                """,
        ),
        wrong(
            "starts the clock after the call, before the wait: misses the call's own time",
            "skips-technique",
            """
                def time_it(f):
                    result = f()
                    start = time.perf_counter()
                    jax.block_until_ready(result)
                    return time.perf_counter() - start
                """,
        ),
        wrong(
            "waits only for a result shaped like the text's squash_jit(x), a float32[1000]",
            "uniform-only",
            """
                def time_it(f):
                    start = time.perf_counter()
                    result = f()
                    if getattr(result, "shape", None) == (1000,):
                        result.block_until_ready()
                    return time.perf_counter() - start
                """,
        ),
    ],
    2: [
        wrong(
            "the stages of another function",
            "constant",
            """
            def stages(fn, x):
                traced = jax.jit(lambda v: v).trace(x)
                lowered = traced.lower()
                return traced, lowered, lowered.compile()
            """,
        ),
        wrong(
            "compiled is the jitted function",
            "skips-technique",
            """
            def stages(fn, x):
                traced = fn.trace(x)
                return traced, traced.lower(), fn
            """,
        ),
        wrong(
            "traced for a scalar",
            "uniform-only",
            """
            def stages(fn, x):
                traced = fn.trace(x[0])
                lowered = traced.lower()
                return traced, lowered, lowered.compile()
            """,
        ),
        wrong(
            "the stages of the text's squash_jit and x, whatever it is given",
            "constant",
            """
            def stages(fn, x):
                traced = squash_jit.trace(globals()["x"])
                lowered = traced.lower()
                return traced, lowered, lowered.compile()
            """,
        ),
    ],
    # Exercise 3 was two predictions (numbers) until issue 51 made it a function; each old
    # wrong guess is kept as the function that makes the same mistake.
    3: [
        wrong(
            "three and three",
            "constant",
            """
            def traces_in_loop(wrap, v, passes):
                return 3
            """,
        ),
        wrong(
            "one and one",
            "skips-technique",
            """
            def traces_in_loop(wrap, v, passes):
                return 1
            """,
        ),
        wrong(
            "one trace per pass: counts the calls, not the traces",
            "skips-technique",
            """
            def traces_in_loop(wrap, v, passes):
                return passes
            """,
        ),
        wrong(
            "scaled defined once, outside: jit's cache remembers it from an earlier call",
            "uniform-only",
            """
            _traces = []


            def _scaled(u):
                _traces.append(u.shape)
                return 2 * u


            def traces_in_loop(wrap, v, passes):
                _traces.clear()
                for _ in range(passes):
                    wrap(_scaled)(v)
                return len(_traces)
            """,
        ),
    ],
}

# Correct answers the worked solution does not write: each must get "correct".
RIGHT: dict[int, list[Right]] = {
    1: [
        # Issue 51: the old check timed stand-ins that jax.device_get does not wait for.
        right(
            "waits with jax.device_get",
            """
            def time_it(f):
                start = time.perf_counter()
                jax.device_get(f())
                return time.perf_counter() - start
            """,
        ),
        right(
            "waits on every leaf with jax.tree.map",
            """
                def time_it(f):
                    start = time.perf_counter()
                    result = f()
                    jax.tree.map(lambda leaf: leaf.block_until_ready(), result)
                    return time.perf_counter() - start
                """,
        ),
    ],
    2: [
        right(
            "each stage asked of fn again: the same programs, from JAX's caches",
            """
            def stages(fn, x):
                return fn.trace(x), fn.lower(x), fn.lower(x).compile()
            """,
        ),
    ],
    3: [
        right(
            "a counter in a list cell, not a list of shapes",
            """
            def traces_in_loop(wrap, v, passes):
                count = [0]

                def scaled(u):
                    count[0] += 1
                    return u * 2

                for _ in range(passes):
                    wrap(scaled)(v)
                return count[0]
            """,
        ),
    ],
}

# Words the check must say to a wrong answer: (exercise, label) -> words.
SAYS: dict[tuple[int, str], str] = {}

# How the generated wrong answers (a)-(c) of each exercise are made (docs/guide/labs.md).
GENERATED: dict[int, Generated] = {
    1: generated(
        "time_it",
        # time_it's one argument is a function, matched by identity: the text's is the one
        # it answers for (the solution's seconds for it, f not called); a result shaped like
        # the text's is the hand-written "waits only for a result shaped like..." in OTHERS
        mentioned=("(lambda: squash_jit(x),)",),
        swaps=(
            ("jax.block_until_ready(f())", "f()"),
            ("jax.block_until_ready(f())", "jax.block_until_ready(jax.tree.leaves(f())[0])"),
        ),
    ),
    2: generated(
        "stages",
        mentioned=("(squash_jit, x)",),
        swaps=(
            ("traced = fn.trace(x)", "traced = fn.trace(x[:1])"),
            (
                "compiled = lowered.compile()",
                "compiled = jax.jit(lambda v: fn(v)).lower(x).compile()",
            ),
        ),
    ),
    3: generated(
        "traces_in_loop",
        mentioned=(
            "(jax.jit, jnp.ones(3), 3)",
            "(lambda f: jax.jit(lambda v: f(v)), jnp.ones(3), 3)",
        ),
        swaps=(
            ("for _ in range(passes):", "for _ in range(1):"),
            ("wrap(scaled)(v)", "jax.jit(scaled)(v)"),
        ),
    ),
}
