"""Plausible wrong answers for every exercise of every lab: each must get "not yet".

`WRONG[lab][n]` lists `Wrong(label, kind, code)`: `code` replaces the lab's `answer-<n>` cell
(tests/lab_runner.py runs it after the cells before it, earlier exercises solved) and
`check(n, problem_n)` must then print `Exercise <n>: not yet: ...`. The kinds:

- "constant": a hard-coded or constant result, computed from nothing;
- "skips-technique": the right numbers on the check's own case, without the technique the
  exercise teaches;
- "uniform-only": right only on all-ones, all-zeros or otherwise uniform inputs;
- "n/a": the kind named by `label` cannot apply to this exercise; `code` then says why, and
  nothing runs.

tests/unit/test_lab_wrong_answers_cover.py requires one of each kind for every exercise;
tests/integration/test_lab_wrong_answers.py runs them. docs/guide/labs.md says how to add one.
"""

from __future__ import annotations

from textwrap import dedent
from typing import NamedTuple

KINDS = ("constant", "skips-technique", "uniform-only")


class Wrong(NamedTuple):
    label: str
    kind: str  # one of KINDS, or "n/a"
    code: str  # the answer cell's replacement; for "n/a", why the kind cannot apply

    @property
    def code_runs(self) -> bool:
        return self.kind != "n/a"


def wrong(label: str, kind: str, code: str) -> Wrong:
    return Wrong(label, kind, dedent(code).strip() + "\n")


def not_applicable(kind: str, why: str) -> Wrong:
    return Wrong(kind, "n/a", why)


PREDICTION = (
    "a prediction of the check's own fixed program: there is no input to make uniform, "
    "and a wrong guess is the constant kind"
)


# The cases issue 36 found passing on the checks it reviewed; each was red before its fix.
ISSUE_36: dict[str, dict[int, list[Wrong]]] = {
    "retracing": {
        3: [
            wrong(
                "no padding, never calls affine",
                "skips-technique",
                """
                def padded_affine(x):
                    return 3 * x + 1
                """,
            ),
        ],
    },
    "jit-in-practice": {
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
    "pytrees": {
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
    "interpreter": {
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
    "derivatives": {
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
    "sharding": {
        3: [
            wrong(
                "a + a: right on all-ones inputs",
                "uniform-only",
                """
                def add_resharded(a, b):
                    return a + a
                """,
            ),
        ],
        4: [
            wrong(
                "a constant array of ones",
                "constant",
                """
                def as_groups(x):
                    return jnp.ones((6, 3, 4))
                """,
            ),
        ],
    },
}

# The wrong answers the reviewers of issue 36 ("Checks that cannot be fooled") saw pass, after
# ISSUE_36's were fixed; each was red before its check was fixed.
REVIEWED: dict[str, dict[int, list[Wrong]]] = {
    "collectives": {
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
    "captures": {
        3: [
            wrong(
                "n static, called with 3 and 5 as the solution cell does",
                "skips-technique",
                """
                n_traces = []


                def _times(x, n):
                    n_traces.append(n)
                    return x * n


                times_n = jax.jit(_times, static_argnums=1)
                print(times_n(jnp.ones(3), 3), times_n(jnp.ones(3), 5))
                """,
            ),
            wrong(
                "n static by name, called with 3 and 5 first",
                "skips-technique",
                """
                from functools import partial

                n_traces = []


                @partial(jax.jit, static_argnames="n")
                def times_n(x, n):
                    n_traces.append(n)
                    return x * n


                print(times_n(jnp.ones(3), 3), times_n(jnp.ones(3), 5))
                """,
            ),
        ],
    },
    "jit-in-practice": {
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
        2: [
            wrong(
                "traced for another shape, lowered and compiled apart from it",
                "skips-technique",
                """
                traced = squash_jit.trace(jnp.ones(7))
                lowered = jax.jit(leaky_squash).lower(x)
                compiled = lowered.compile()
                """,
            ),
            wrong(
                "traced for another shape, lowered from a second trace",
                "skips-technique",
                """
                traced = squash_jit.trace(jnp.ones(7))
                lowered = squash_jit.trace(x).lower()
                compiled = lowered.compile()
                """,
            ),
            # Issue 37: the check compared only compiled's numbers, so a Compiled of another
            # program that gives the same numbers passed.
            wrong(
                "compiled from a jit around squash_jit, not from lowered",
                "skips-technique",
                """
                traced = squash_jit.trace(x)
                lowered = traced.lower()
                compiled = jax.jit(lambda v: squash_jit(v)).lower(x).compile()
                """,
            ),
            wrong(
                "compiled from a jit of a lambda around leaky_squash, not from lowered",
                "skips-technique",
                """
                traced = squash_jit.trace(x)
                lowered = traced.lower()
                compiled = jax.jit(lambda v: leaky_squash(v)).trace(x).lower().compile()
                """,
            ),
        ],
    },
    "lesson": {
        3: [
            wrong(
                "the fixed point 0.6, the check run until it passes",
                "constant",
                """
                loop_traces = []


                @jax.jit
                def logistic_fori(x, steps):
                    loop_traces.append(steps)
                    return jnp.full_like(x, 0.6)


                for _ in range(8):  # a reader who runs the check again and again
                    problem_3()
                """,
            ),
            wrong(
                "a fixed point from a long loop, whatever steps says, checked again and again",
                "skips-technique",
                """
                loop_traces = []


                @jax.jit
                def logistic_fori(x, steps):
                    loop_traces.append(steps)
                    return jax.lax.fori_loop(0, 200, lambda i, x: 2.5 * x * (1 - x), x)


                for _ in range(8):
                    problem_3()
                """,
            ),
        ],
    },
    "tracers": {
        3: [
            wrong(
                "closes over an unrelated array too, moved_to constants",
                "skips-technique",
                """
                _g = jnp.ones(3)


                def standardize_args(x, m, s):
                    return (x - m) / s * _g


                moved_to = "constants"
                """,
            ),
            wrong(
                "closes over a scale array, moved_to constants",
                "skips-technique",
                """
                _scale = jnp.array([1.0, 1.0, 1.0])


                def standardize_args(x, mu, sigma):
                    return _scale * (x - mu) / sigma


                moved_to = "constants"
                """,
            ),
        ],
    },
    "control-flow": {
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
    "derivatives": {
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
            # Issue 37, third read: the exercise asks for jvp of grad; these never call jvp.
            wrong(
                "reverse over reverse: vjp of grad",
                "skips-technique",
                """
                def hvp(f, x, v):
                    return jax.vjp(jax.grad(f), x)[1](v)[0]
                """,
            ),
            wrong(
                "reverse over reverse: grad of grad's dot with v",
                "skips-technique",
                """
                def hvp(f, x, v):
                    return jax.grad(lambda y: jnp.vdot(jax.grad(f)(y), v))(x)
                """,
            ),
        ],
    },
    "numpy-habits": {
        4: [
            wrong(
                "checkified, not jitted",
                "skips-technique",
                """
                from jax.experimental import checkify


                def read(data, i):
                    return data[i]


                checked_read = checkify.checkify(read, errors=checkify.index_checks)
                """,
            ),
            wrong(
                "checkified inside a plain function, not jitted",
                "skips-technique",
                """
                from jax.experimental import checkify


                def checked_read(data, i):
                    checked = checkify.checkify(lambda d, j: d[j], errors=checkify.index_checks)
                    return checked(data, i)
                """,
            ),
            wrong(
                "a hand-written check against five elements, upper bound only",
                "skips-technique",
                """
                from jax.experimental import checkify


                def read(data, i):
                    return data[i]


                def _read_checked(data, i):
                    checkify.check(i < 5, "index {i} is out of bounds", i=i)
                    return read(data, i)


                checked_read = jax.jit(checkify.checkify(_read_checked))
                """,
            ),
            wrong(
                "a hand-written check against five elements, both bounds",
                "skips-technique",
                """
                from jax.experimental import checkify


                def read(data, i):
                    return data[i]


                def _read_checked(data, i):
                    checkify.check((i >= -5) & (i < 5), "index {i} is out of bounds", i=i)
                    return read(data, i)


                checked_read = jax.jit(checkify.checkify(_read_checked))
                """,
            ),
        ],
    },
    "transforms": {
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
                "jax.value_and_grad, no vjp",
                "skips-technique",
                """
                def grad_by_vjp(w, x, y):
                    return jax.value_and_grad(loss)(w, x, y)[1]
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
            wrong(
                "jax.linearize, then jax.linear_transpose, no vjp",
                "skips-technique",
                """
                def grad_by_vjp(w, x, y):
                    f = lambda w: loss(w, x, y)  # noqa: E731
                    _, lin = jax.linearize(f, w)
                    return jax.linear_transpose(lin, w)(1.0)[0]
                """,
            ),
        ],
        # Issue 37, third read: the exercise nests jacfwd over grad; reverse over reverse passed.
        4: [
            wrong(
                "jacrev over grad, no jacfwd",
                "skips-technique",
                """
                def curvature_in_x(w, x, y):
                    return jax.jacrev(jax.grad(loss, argnums=1), argnums=1)(w, x, y)
                """,
            ),
        ],
    },
    "sharding": {
        3: [
            wrong(
                "a + a + 100: ignores b, right when b is a + 100",
                "skips-technique",
                """
                def add_resharded(a, b):
                    return a + a + 100.0
                """,
            ),
            wrong(
                "2 * a + 100: ignores b, right when b is a + 100",
                "constant",
                """
                def add_resharded(a, b):
                    return 2 * a + 100.0
                """,
            ),
            wrong(
                "b copied to the host, no reshard",
                "skips-technique",
                """
                import numpy as np


                def add_resharded(a, b):
                    return a + np.asarray(b)
                """,
            ),
        ],
    },
    "retracing": {
        3: [
            wrong(
                "padded_affine jitted itself: a trace and a compile per length",
                "skips-technique",
                """
                @jax.jit
                def padded_affine(x):
                    n = x.shape[0]
                    return affine(jnp.pad(x, (0, 8 - n)))[:n]
                """,
            ),
        ],
    },
    "primitives": {
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
    "interpreter": {
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
}

# The third read of issue 37 (reviewer A): wrong answers that passed; each was red before its
# check was fixed.
THIRD_READ: dict[str, dict[int, list[Wrong]]] = {
    "sharding": {
        3: [
            wrong(
                "b resharded to a placement typed in, right only for the check's a",
                "skips-technique",
                """
                from jax.sharding import reshard


                def add_resharded(a, b):
                    return a + reshard(b, NamedSharding(mesh, Spec("data", "model")))
                """,
            ),
        ],
    },
    "primitives": {
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
                stack2_p = Primitive("stack2")
                stack2_p.def_impl(lambda x: jnp.stack([x, 2 * x]))
                stack2_p.def_abstract_eval(
                    lambda aval: jax.core.ShapedArray((2, *aval.shape), jnp.float32)
                )
                stack2_out = "f32[2,3]"
                """,
            ),
        ],
    },
    "leaving-the-trace": {
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
                        grid=(2,),
                        in_specs=[block],
                        out_specs=block,
                        interpret=True,
                    )(x) + y
                """,
            ),
        ],
    },
    "interpreter": {
        1: [
            wrong(
                "a census read off the printed jaxpr with a regex, not its equations",
                "skips-technique",
                """
                import re
                from collections import Counter


                def census(jaxpr):
                    found = Counter(re.findall(r"= ([a-z_]+)[\\[ \\n]", str(jaxpr)))
                    return dict(sorted(found.items()))
                """,
            ),
        ],
    },
}

# The third read of issue 37 (reviewer C): wrong answers that passed; each was red before its
# check was fixed.
THIRD_READ_C: dict[str, dict[int, list[Wrong]]] = {
    "collectives": {
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
    "numpy-habits": {
        4: [
            wrong(
                "a hand-written bounds check, off by one at each end",
                "skips-technique",
                """
                from jax.experimental import checkify


                def read(data, i):
                    n = data.shape[0]
                    checkify.check((i <= n) & (i >= -n - 1), "index {i} is out of bounds", i=i)
                    return data[i]


                checked_read = jax.jit(checkify.checkify(read))
                """,
            ),
            wrong(
                "index_checks, but reads data[abs(i)]",
                "skips-technique",
                """
                from jax.experimental import checkify


                def read(data, i):
                    return data[jnp.abs(i)]


                checked_read = jax.jit(checkify.checkify(read, errors=checkify.index_checks))
                """,
            ),
        ],
    },
    "captures": {
        1: [
            wrong(
                "no append in the body: the count is faked outside",
                "skips-technique",
                """
                traces = []


                @jax.jit
                def times_steps(x):
                    return x * steps


                traces.append("one")
                """,
            ),
        ],
        3: [
            wrong(
                "no append in the body: appended outside",
                "skips-technique",
                """
                n_traces = []


                @jax.jit
                def times_n(x, n):
                    return x * n


                n_traces.append("one")
                """,
            ),
        ],
    },
    "randomness": {
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

# The confirmation read of issue 37 (reviewer D): wrong answers that passed, and the next one a
# hostile reader would try for each; each was red before its check was fixed.
CONFIRMATION_READ: dict[str, dict[int, list[Wrong]]] = {
    "interpreter": {
        1: [
            wrong(
                "a census read off the printed jaxpr with a regex that allows digits",
                "skips-technique",
                """
                import re
                from collections import Counter


                def census(jaxpr):
                    found = Counter(re.findall(r"= ([a-z_0-9]+)[\\[ \\n]", str(jaxpr)))
                    return dict(sorted(found.items()))
                """,
            ),
            wrong(
                "walks every param that holds a jaxpr: counts a custom_jvp_call's body too",
                "skips-technique",
                """
                def census(jaxpr):
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
    "sharding": {
        3: [
            wrong(
                "replicates a and b, adds, reshards the sum back",
                "skips-technique",
                """
                from jax.sharding import reshard


                def add_resharded(a, b):
                    full = NamedSharding(mesh, Spec())
                    return reshard(reshard(a, full) + reshard(b, full), jax.typeof(a).sharding)
                """,
            ),
            wrong(
                "moves a to b's placement, adds, moves the sum back",
                "skips-technique",
                """
                from jax.sharding import reshard


                def add_resharded(a, b):
                    moved = reshard(a, jax.typeof(b).sharding) + b
                    return reshard(moved, jax.typeof(a).sharding)
                """,
            ),
            wrong(
                "one reshard of b, to replicated: every device gathers all of b",
                "skips-technique",
                """
                from jax.sharding import reshard


                def add_resharded(a, b):
                    return a + reshard(b, NamedSharding(mesh, Spec()))
                """,
            ),
        ],
    },
    "leaving-the-trace": {
        2: [
            wrong(
                "exported for float32[n, m]: the columns symbolic too",
                "skips-technique",
                """
                n, m = export.symbolic_shape("n, m")
                exported = export.export(jax.jit(lambda x: jnp.sin(x).sum(axis=0)))(
                    jax.ShapeDtypeStruct((n, m), jnp.float32)
                )
                blob = exported.serialize(vjp_order=1)
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
                        grid=(2,),
                        in_specs=[block, block],
                        out_specs=block,
                        interpret=True,
                    )(x, y)
                """,
            ),
        ],
    },
}

# The confirmation read of issue 37 (reviewer E): wrong answers that passed, and the next one a
# hostile reader would try once each was refused; each was red before its check was fixed.
CONFIRMATION_READ_E: dict[str, dict[int, list[Wrong]]] = {
    "transforms": {
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
    "derivatives": {
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
    "retracing": {
        2: [
            wrong(
                "the right numbers with a leading axis, shape (1, 4)",
                "skips-technique",
                """
                @jax.jit
                def affine_pair(pair):
                    return (3 * (pair[0] + pair[1]) + 1)[None]


                list_retraces = True
                """,
            ),
            wrong(
                "the right numbers stacked twice, shape (2, 4)",
                "skips-technique",
                """
                @jax.jit
                def affine_pair(pair):
                    out = 3 * (pair[0] + pair[1]) + 1
                    return jnp.stack([out, out])


                list_retraces = True
                """,
            ),
        ],
    },
}


CONFIRMATION_READ_FG: dict[str, dict[int, list[Wrong]]] = {
    "interpreter": {
        1: [
            wrong(
                "each nested body walked once, by identity: a jaxpr called twice counts once",
                "uniform-only",
                """
                def census(jaxpr):
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
    "numpy-habits": {
        3: [
            wrong(
                "donated, but the result has an extra leading axis, shape (1, 4)",
                "uniform-only",
                """
                double_in_place = jax.jit(lambda a: jnp.stack([2 * a]), donate_argnums=0)
                """,
            ),
            wrong(
                "donated, twice the input cast to float16",
                "uniform-only",
                """
                double_in_place = jax.jit(lambda a: (2 * a).astype(jnp.float16), donate_argnums=0)
                """,
            ),
        ],
    },
    "control-flow": {
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
}


OTHERS: dict[str, dict[int, list[Wrong]]] = {
    "captures": {
        1: [
            wrong(
                "multiplies by 3, the value steps has now",
                "constant",
                """
                traces = []


                @jax.jit
                def times_steps(x):
                    traces.append(x.shape)
                    return x * 3
                """,
            ),
            wrong(
                "not jitted",
                "skips-technique",
                """
                traces = []


                def times_steps(x):
                    traces.append(x.shape)
                    return x * steps
                """,
            ),
            wrong(
                "ignores x: right on an all-sevens x",
                "uniform-only",
                """
                traces = []


                @jax.jit
                def times_steps(x):
                    traces.append(x.shape)
                    return jnp.full_like(x, 7.0) * steps
                """,
            ),
        ],
        2: [
            wrong(
                "every call sees the new steps and traces",
                "constant",
                """
                predicted_values = [3.0, 10.0, 5.0]
                predicted_traces = [1, 2, 3]
                """,
            ),
            wrong(
                "values as if the cache saw steps",
                "skips-technique",
                """
                predicted_values = [3.0, 10.0, 5.0]
                predicted_traces = [1, 1, 2]
                """,
            ),
            not_applicable("uniform-only", PREDICTION),
        ],
        3: [
            wrong(
                "ignores x: n times a vector of ones",
                "constant",
                """
                n_traces = []


                @jax.jit
                def times_n(x, n):
                    n_traces.append(1)
                    return jnp.ones(3) * n
                """,
            ),
            wrong(
                "n static: a trace per value",
                "skips-technique",
                """
                n_traces = []


                def _times(x, n):
                    n_traces.append(n)
                    return x * n


                times_n = jax.jit(_times, static_argnums=1)
                """,
            ),
            wrong(
                "x ** 0 * n: right on all-ones x",
                "uniform-only",
                """
                n_traces = []


                @jax.jit
                def times_n(x, n):
                    n_traces.append(1)
                    return x**0 * n
                """,
            ),
        ],
    },
    "collectives": {
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
    },
    "compose": {
        1: [
            wrong(
                "the outer vmap reaches f",
                "constant",
                """
                predicted = ["BatchTracer", "LinearizeTracer", "BatchTracer", "DynamicJaxprTracer"]
                """,
            ),
            wrong(
                "grad as a JVPTracer",
                "skips-technique",
                """
                predicted = ["JVPTracer", "BatchTracer", "DynamicJaxprTracer"]
                """,
            ),
            not_applicable("uniform-only", PREDICTION),
        ],
        2: [
            wrong(
                "the check's expected values",
                "constant",
                """
                def track_fixed(x, best):
                    return jnp.array([6.0, 4.0]), jnp.float32(5.0)
                """,
            ),
            wrong(
                "still appends to history",
                "skips-technique",
                """
                def track_fixed(x, best):
                    history.append(x.max())
                    return x * 2, jnp.maximum(best, x.max())
                """,
            ),
            wrong(
                "the last element for the maximum",
                "uniform-only",
                """
                def track_fixed(x, best):
                    return x * 2, jnp.maximum(best, x[-1])
                """,
            ),
        ],
        3: [
            wrong(
                "the check's values for 3.0",
                "constant",
                """
                def scaled_known(x):
                    return jnp.array([3.0, 6.0, 12.0, 24.0, 48.0])
                """,
            ),
            wrong(
                "a cumprod: no iota, and no constant either",
                "skips-technique",
                """
                def scaled_known(x):
                    return x * jnp.cumprod(jnp.full(5, 2.0)) / 2
                """,
            ),
            wrong(
                "abs(x): right for positive x only",
                "uniform-only",
                """
                def scaled_known(x):
                    with jax.ensure_compile_time_eval():
                        table = 2.0 ** jnp.arange(5)
                    return jnp.abs(x) * table
                """,
            ),
        ],
    },
    "control-flow": {
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
        3: [
            wrong(
                "cond stays, nothing raised",
                "constant",
                """
                predicted_choice = "cond"
                predicted_static_error = "nothing"
                """,
            ),
            wrong(
                "select_n, but static fixes the if",
                "skips-technique",
                """
                predicted_choice = "select_n"
                predicted_static_error = "nothing"
                """,
            ),
            not_applicable("uniform-only", PREDICTION),
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
    },
    "leaving-the-trace": {
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
                blob = export.export(jax.jit(lambda x: jnp.sin(x).sum(axis=0)))(
                    jax.ShapeDtypeStruct((3, 4), jnp.float32)
                ).serialize(vjp_order=1)
                """,
            ),
            wrong(
                "serialized without its VJP",
                "skips-technique",
                """
                (n,) = export.symbolic_shape("n")
                blob = export.export(jax.jit(lambda x: jnp.sin(x).sum(axis=0)))(
                    jax.ShapeDtypeStruct((n, 4), jnp.float32)
                ).serialize()
                """,
            ),
            wrong(
                "x instead of sin(x): right near zero",
                "uniform-only",
                """
                (n,) = export.symbolic_shape("n")
                blob = export.export(jax.jit(lambda x: x.sum(axis=0)))(
                    jax.ShapeDtypeStruct((n, 4), jnp.float32)
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
                        grid=(2,),
                        in_specs=[first, first],
                        out_specs=block,
                        interpret=True,
                    )(x, y)
                """,
            ),
        ],
    },
    "lesson": {
        1: [
            wrong(
                "a concretization error",
                "constant",
                """
                predicted_error = "ConcretizationTypeError"
                """,
            ),
            wrong(
                "a bool conversion",
                "skips-technique",
                """
                predicted_error = "TracerBoolConversionError"
                """,
            ),
            not_applicable("uniform-only", PREDICTION),
        ],
        2: [
            wrong(
                "the fixed point 0.6",
                "constant",
                """
                static_traces = []


                @partial(jax.jit, static_argnames="steps")
                def logistic_static(x, steps):
                    static_traces.append(steps)
                    return jnp.full_like(x, 0.6)
                """,
            ),
            wrong(
                "not jitted",
                "skips-technique",
                """
                static_traces = []


                def logistic_static(x, steps):
                    static_traces.append(steps)
                    return logistic(x, steps)
                """,
            ),
            wrong(
                "ten steps whatever steps is",
                "uniform-only",
                """
                static_traces = []


                @partial(jax.jit, static_argnames="steps")
                def logistic_static(x, steps):
                    static_traces.append(steps)
                    return logistic(x, 10)
                """,
            ),
        ],
        3: [
            wrong(
                "the fixed point 0.6",
                "constant",
                """
                loop_traces = []


                @jax.jit
                def logistic_fori(x, steps):
                    loop_traces.append(steps)
                    return jnp.full_like(x, 0.6)
                """,
            ),
            wrong(
                "steps static",
                "skips-technique",
                """
                loop_traces = []


                @partial(jax.jit, static_argnums=1)
                def logistic_fori(x, steps):
                    loop_traces.append(steps)
                    return logistic(x, steps)
                """,
            ),
            wrong(
                "ten steps whatever steps is",
                "uniform-only",
                """
                loop_traces = []


                @jax.jit
                def logistic_fori(x, steps):
                    loop_traces.append(steps)
                    return jax.lax.fori_loop(0, 10, lambda i, x: 2.5 * x * (1 - x), x)
                """,
            ),
        ],
    },
    "numpy-habits": {
        1: [
            wrong("nothing raised", "constant", 'predicted_error = "nothing"\n'),
            wrong(
                "a bool conversion",
                "skips-technique",
                'predicted_error = "TracerBoolConversionError"\n',
            ),
            not_applicable("uniform-only", PREDICTION),
        ],
        2: [
            wrong(
                "the mean of the check's two vectors, 4.0",
                "constant",
                """
                def positive_mean(x):
                    return jnp.float32(4.0) + 0 * x.sum()
                """,
            ),
            wrong(
                "where, then the mean over every entry",
                "skips-technique",
                """
                def positive_mean(x):
                    return jnp.where(x > 0, x, 0.0).mean()
                """,
            ),
            wrong(
                "divides by a fixed count of three",
                "uniform-only",
                """
                def positive_mean(x):
                    return jnp.where(x > 0, x, 0.0).sum() / 3
                """,
            ),
        ],
        3: [
            wrong(
                "returns the check's answer",
                "constant",
                """
                double_in_place = jax.jit(lambda a: jnp.arange(4.0) * 2, donate_argnums=0)
                """,
            ),
            wrong(
                "no donation",
                "skips-technique",
                """
                double_in_place = jax.jit(lambda a: 2 * a)
                """,
            ),
            wrong(
                "a + arange: right on the check's input",
                "uniform-only",
                """
                double_in_place = jax.jit(lambda a: a + jnp.arange(4.0), donate_argnums=0)
                """,
            ),
        ],
        4: [
            wrong(
                "a constant read",
                "constant",
                """
                from jax.experimental import checkify

                checked_read = jax.jit(
                    checkify.checkify(lambda d, i: jnp.float32(20.0), errors=checkify.index_checks)
                )
                """,
            ),
            wrong(
                "checkify without index checks",
                "skips-technique",
                """
                from jax.experimental import checkify


                def read(data, i):
                    return data[i]


                checked_read = jax.jit(checkify.checkify(read))
                """,
            ),
            wrong(
                "i * 10: right on the check's data only",
                "uniform-only",
                """
                from jax.experimental import checkify

                checked_read = jax.jit(
                    checkify.checkify(lambda d, i: i * 10.0, errors=checkify.index_checks)
                )
                """,
            ),
        ],
    },
    "primitives": {
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
                stack2_p = Primitive("stack2")
                stack2_p.def_impl(lambda x: jnp.stack([x, 2 * x]))
                stack2_p.def_abstract_eval(lambda aval: jax.core.ShapedArray((2, 3), aval.dtype))
                stack2_out = "f32[2,3]"
                """,
            ),
            wrong(
                "the input's type unchanged, as for an elementwise primitive",
                "skips-technique",
                """
                stack2_p = Primitive("stack2")
                stack2_p.def_impl(lambda x: jnp.stack([x, 2 * x]))
                stack2_p.def_abstract_eval(lambda aval: aval)
                stack2_out = "f32[3]"
                """,
            ),
            wrong(
                "x + 1 for 2 * x: right on all-ones x",
                "uniform-only",
                """
                stack2_p = Primitive("stack2")
                stack2_p.def_impl(lambda x: jnp.stack([x, x + 1]))
                stack2_p.def_abstract_eval(
                    lambda aval: jax.core.ShapedArray((2, *aval.shape), aval.dtype)
                )
                stack2_out = "f32[2,3]"
                """,
            ),
            wrong(
                "the type read as the input's",
                "constant",
                """
                stack2_p = Primitive("stack2")
                stack2_p.def_impl(lambda x: jnp.stack([x, 2 * x]))
                stack2_p.def_abstract_eval(
                    lambda aval: jax.core.ShapedArray((2, *aval.shape), aval.dtype)
                )
                stack2_out = "f32[3]"
                """,
            ),
        ],
    },
    "pytrees": {
        1: [
            wrong("None counted as a leaf", "constant", "predicted_leaves = 4\n"),
            wrong("only the arrays", "skips-technique", "predicted_leaves = 2\n"),
            not_applicable("uniform-only", PREDICTION),
        ],
        2: [
            wrong(
                "only the used leaves",
                "constant",
                """
                predicted_binders = 2
                tuple_changes_jaxpr = False
                tuple_changes_treedef = True
                """,
            ),
            wrong(
                "the tuple changes the jaxpr",
                "skips-technique",
                """
                predicted_binders = 3
                tuple_changes_jaxpr = True
                tuple_changes_treedef = True
                """,
            ),
            not_applicable("uniform-only", PREDICTION),
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
                """,
            ),
            not_applicable(
                "uniform-only", "the check builds its own layers: a Layer has no inputs of its own"
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
    },
    "randomness": {
        1: [
            wrong("a whole uint32 word", "constant", "predicted_bit_width = 32\n"),
            wrong("eight bits", "skips-technique", "predicted_bit_width = 8\n"),
            not_applicable("uniform-only", PREDICTION),
        ],
        2: [
            wrong(
                "float32's numbers", "constant", "predicted_shift = 9\npredicted_or = 0x3F800000\n"
            ),
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
    },
    "retracing": {
        1: [
            wrong(
                "every call traces",
                "constant",
                """
                predicted = {
                    "ones((2, 2))": 1, "ones((2, 2)).T": 1, "ones(4, float16)": 1, "True": 1
                }
                """,
            ),
            wrong(
                "a bool is weakly typed like an int",
                "skips-technique",
                """
                predicted = {
                    "ones((2, 2))": 1, "ones((2, 2)).T": 0, "ones(4, float16)": 1, "True": 0
                }
                """,
            ),
            not_applicable("uniform-only", PREDICTION),
        ],
        2: [
            wrong(
                "a list does not retrace",
                "constant",
                """
                @jax.jit
                def affine_pair(pair):
                    return 3 * (pair[0] + pair[1]) + 1


                list_retraces = False
                """,
            ),
            wrong(
                "not jitted",
                "skips-technique",
                """
                def affine_pair(pair):
                    return 3 * (pair[0] + pair[1]) + 1


                list_retraces = True
                """,
            ),
            wrong(
                "+ pair[0] for the 1: right when the first is ones",
                "uniform-only",
                """
                @jax.jit
                def affine_pair(pair):
                    return 3 * (pair[0] + pair[1]) + pair[0]


                list_retraces = True
                """,
            ),
        ],
        3: [
            wrong(
                "ones",
                "constant",
                """
                def padded_affine(x):
                    affine(jnp.zeros(8))
                    return jnp.ones_like(x)
                """,
            ),
            wrong(
                "pads in front: right on all-zeros x",
                "uniform-only",
                """
                def padded_affine(x):
                    n = x.shape[0]
                    return affine(jnp.pad(x, (8 - n, 0)))[:n]
                """,
            ),
            wrong(
                "a plain function around a jitted padding",
                "skips-technique",
                """
                @jax.jit
                def _padded(x):
                    n = x.shape[0]
                    return affine(jnp.pad(x, (0, 8 - n)))[:n]


                def padded_affine(x):
                    return _padded(x)
                """,
            ),
        ],
    },
    "jit-in-practice": {
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
        ],
        2: [
            wrong(
                "the stages of another function",
                "constant",
                """
                traced = jax.jit(lambda v: v).trace(x)
                lowered = traced.lower()
                compiled = lowered.compile()
                """,
            ),
            wrong(
                "compiled is the jitted function",
                "skips-technique",
                """
                traced = squash_jit.trace(x)
                lowered = traced.lower()
                compiled = squash_jit
                """,
            ),
            wrong(
                "traced for a scalar",
                "uniform-only",
                """
                traced = squash_jit.trace(x[0])
                lowered = traced.lower()
                compiled = lowered.compile()
                """,
            ),
        ],
        3: [
            wrong("three and three", "constant", "predicted_same = 3\npredicted_lambda = 3\n"),
            wrong("one and one", "skips-technique", "predicted_same = 1\npredicted_lambda = 1\n"),
            not_applicable("uniform-only", PREDICTION),
        ],
    },
    "derivatives": {
        1: [
            wrong(
                "jacrev shorter, counts guessed",
                "constant",
                """
                fwd_eqns = 10
                rev_eqns = 8
                shorter = "jacrev"
                """,
            ),
            wrong(
                "right counts, the rule of thumb for shorter",
                "skips-technique",
                """
                fwd_eqns = len(jax.make_jaxpr(jax.jacfwd(wide))(x5).jaxpr.eqns)
                rev_eqns = len(jax.make_jaxpr(jax.jacrev(wide))(x5).jaxpr.eqns)
                shorter = "jacrev"
                """,
            ),
            not_applicable("uniform-only", PREDICTION),
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
    },
    "sharding": {
        1: [
            wrong("the whole axis wins", "constant", 'predicted_spec = Spec("data", None)\n'),
            wrong("rows dropped", "skips-technique", 'predicted_spec = Spec(None, "model")\n'),
            not_applicable("uniform-only", PREDICTION),
        ],
        2: [
            wrong("feats' placement wins", "constant", 'predicted_outcome = ("data", "model")\n'),
            wrong("a ValueError", "skips-technique", 'predicted_outcome = "ValueError"\n'),
            not_applicable("uniform-only", PREDICTION),
        ],
        3: [
            wrong(
                "twos, placed like a",
                "constant",
                """
                def add_resharded(a, b):
                    return jax.sharding.reshard(jnp.full(a.shape, 2.0), jax.typeof(a).sharding)
                """,
            ),
            wrong(
                "no reshard",
                "skips-technique",
                """
                def add_resharded(a, b):
                    return a + b
                """,
            ),
        ],
        4: [
            wrong(
                "a plain reshape",
                "skips-technique",
                """
                def as_groups(x):
                    return jnp.reshape(x, (6, 3, 4))
                """,
            ),
            wrong(
                "regrouped as 4 by 3, then transposed",
                "uniform-only",
                """
                def as_groups(x):
                    r = jnp.reshape(x, (6, 4, 3), out_sharding=Spec("data", None, None))
                    return jnp.transpose(r, (0, 2, 1))
                """,
            ),
        ],
    },
    "interpreter": {
        1: [
            wrong(
                "the check's counts, typed in",
                "constant",
                """
                def census(jaxpr):
                    return {"add": 1, "cos": 1, "exp": 1, "jit": 1, "mul": 2, "reduce_sum": 1,
                            "sin": 1, "slice": 1, "squeeze": 1}
                """,
            ),
            wrong(
                "top level only",
                "skips-technique",
                """
                from collections import Counter


                def census(jaxpr):
                    return dict(sorted(Counter(e.primitive.name for e in jaxpr.eqns).items()))
                """,
            ),
            wrong(
                "each name counted once",
                "uniform-only",
                """
                def census(jaxpr):
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
    },
    "tracers": {
        1: [
            wrong(
                "zeros",
                "constant",
                """
                def standardize(x):
                    return jnp.zeros_like(x)
                """,
            ),
            wrong(
                "its own statistics of x",
                "skips-technique",
                """
                def standardize(x):
                    return (x - x.mean(axis=0)) / x.std(axis=0)
                """,
            ),
            wrong(
                "divides by the first sigma",
                "uniform-only",
                """
                def standardize(x):
                    return (x - mu) / sigma[0]
                """,
            ),
        ],
        2: [
            wrong(
                "no constants, no broadcasts",
                "constant",
                "predicted_constants = 0\npredicted_broadcasts = 0\n",
            ),
            wrong(
                "constants, but no broadcasts",
                "skips-technique",
                "predicted_constants = 2\npredicted_broadcasts = 0\n",
            ),
            not_applicable("uniform-only", PREDICTION),
        ],
        3: [
            wrong(
                "the globals, not its arguments",
                "skips-technique",
                """
                def standardize_args(x, m, s):
                    return (x - mu) / sigma


                moved_to = "constants"
                """,
            ),
            wrong(
                "right function, constants",
                "constant",
                """
                def standardize_args(x, mu, sigma):
                    return (x - mu) / sigma


                moved_to = "constants"
                """,
            ),
            wrong(
                "sigma's mean",
                "uniform-only",
                """
                def standardize_args(x, mu, sigma):
                    return (x - mu) / sigma.mean()


                moved_to = "inputs"
                """,
            ),
        ],
    },
    "transforms": {
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
        ],
        2: [
            wrong(
                "a contraction, no batch",
                "constant",
                """
                predicted_dimension_numbers = (((0,), (0,)), ((), ()))
                predicted_shape = (3,)
                """,
            ),
            wrong(
                "the right numbers, the wrong shape",
                "skips-technique",
                """
                predicted_dimension_numbers = (((), ()), ((0,), (0,)))
                predicted_shape = (3, 8)
                """,
            ),
            not_applicable("uniform-only", PREDICTION),
        ],
        3: [
            wrong(
                "jax.grad itself",
                "skips-technique",
                """
                def grad_by_vjp(w, x, y):
                    return jax.grad(loss)(w, x, y)
                """,
            ),
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
        ],
    },
}


class Right(NamedTuple):
    label: str
    code: str  # the answer cell's replacement: a correct answer the lab's solution does not write


def right(label: str, code: str) -> Right:
    return Right(label, dedent(code).strip() + "\n")


# Correct answers other than the lab's own solution, each of which a check once refused or
# could refuse: tests/integration/test_lab_wrong_answers.py requires "correct" for each.
RIGHT: dict[str, dict[int, list[Right]]] = {
    "retracing": {
        3: [
            right(
                "affine bound as a default argument",
                """
                def padded_affine(x, fn=affine):
                    n = x.shape[0]
                    return fn(jnp.pad(x, (0, 8 - n)))[:n]
                """,
            ),
            right(
                "affine captured in a closure",
                """
                def padding_to(size, fn):
                    def padded(x):
                        n = x.shape[0]
                        return fn(jnp.pad(x, (0, size - n)))[:n]

                    return padded


                padded_affine = padding_to(8, affine)
                """,
            ),
            # Issue 37, third read: refused, "called affine 0 times".
            right(
                "affine bound by functools.partial",
                """
                import functools


                def _padded(x, fn):
                    n = x.shape[0]
                    return fn(jnp.pad(x, (0, 8 - n)))[:n]


                padded_affine = functools.partial(_padded, fn=affine)
                """,
            ),
        ],
    },
    "jit-in-practice": {
        1: [
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
                "each stage asked of squash_jit again: the same programs, from JAX's caches",
                """
                traced = squash_jit.trace(x)
                lowered = squash_jit.lower(x)
                compiled = squash_jit.lower(x).compile()
                """,
            ),
        ],
    },
    "control-flow": {
        # Issue 37, last read L: a zero vector is now checked, a mask's dtype, a dotted name.
        1: [
            right(
                "v * min(1, limit / norm): a zero vector gives inf, and min keeps it whole",
                """
                def clip_where(v, limit):
                    norm = jnp.linalg.norm(v)
                    return v * jnp.minimum(1.0, limit / norm)
                """,
            ),
        ],
        3: [
            right(
                "the error class itself, not its name",
                """
                predicted_choice = "select_n"
                predicted_static_error = jax.errors.TracerBoolConversionError
                """,
            ),
            right(
                "the error named with its module",
                """
                predicted_choice = "select_n"
                predicted_static_error = "jax.errors.TracerBoolConversionError"
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
    },
    "derivatives": {
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
            # Review H: the exercise's text says this nesting is accepted too.
            right(
                "reverse over forward: grad of the jvp along v",
                """
                def hvp(f, x, v):
                    return jax.grad(lambda y: jax.jvp(f, (y,), (v,))[1])(x)
                """,
            ),
        ],
    },
    "transforms": {
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
        ],
        3: [
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
        ],
        # Issue 37, third read: the check now watches for jax.jacfwd.
        4: [
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
        ],
    },
    "sharding": {
        3: [
            right(
                "the reshard inside a jit of its own",
                """
                @jax.jit
                def add_resharded(a, b):
                    return a + jax.sharding.reshard(b, jax.typeof(a).sharding)
                """,
            ),
        ],
    },
    "primitives": {
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
                stack2_p = Primitive("stack2")
                stack2_p.def_impl(lambda x: jnp.stack([x, 2 * x]))
                stack2_p.def_abstract_eval(lambda aval: aval.update(shape=(2, *aval.shape)))
                stack2_out = "f32[2,3]"
                """,
            ),
        ],
    },
    "leaving-the-trace": {
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
                        grid=(2,),
                        in_specs=specs[:2],
                        out_specs=specs[2],
                        interpret=True,
                    )(x, y)
                """,
            ),
        ],
    },
}


# The confirmation read of issue 37 (reviewer H): wrong answers that passed; each was red
# before its check was fixed.
CONFIRMATION_READ_H: dict[str, dict[int, list[Wrong]]] = {
    "transforms": {
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
    "derivatives": {
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
    "retracing": {
        1: [
            wrong(
                "the right counts written as strings",
                "constant",
                """
                predicted = {
                    "ones((2, 2))": "1",
                    "ones((2, 2)).T": "0",
                    "ones(4, float16)": "1",
                    "True": "1",
                }
                """,
            ),
        ],
        3: [
            wrong(
                "calls affine on the padded vector, then returns its own 3 * x + 1",
                "skips-technique",
                """
                def padded_affine(x):
                    n = x.shape[0]
                    affine(jnp.pad(x, (0, 8 - n)))
                    return 3 * x + 1
                """,
            ),
        ],
    },
}


# The final reads of issue 37 (reviewers I and J): wrong answers that passed; each was red
# before its check was fixed.
FINAL_READ_IJ: dict[str, dict[int, list[Wrong]]] = {
    "interpreter": {
        1: [
            wrong(
                "counts each output of an equation, not each equation",
                "skips-technique",
                """
                from collections import Counter


                def census(jaxpr):
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
    "control-flow": {
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
    "derivatives": {
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


# The last read of issue 37 (reviewer L): wrong answers that passed; each was red before its
# check was fixed.
LAST_READ_L: dict[str, dict[int, list[Wrong]]] = {
    "control-flow": {
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
}


# The last read of issue 37 (reviewer K): wrong answers that passed; each was red before its
# check was fixed.
LAST_READ_K: dict[str, dict[int, list[Wrong]]] = {
    "interpreter": {
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


# The last confirmation of issue 37 (reviewer L4): a wrong answer that passed; red before its
# check was fixed.
LAST_READ_L4: dict[str, dict[int, list[Wrong]]] = {
    "control-flow": {
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
}


# What the check must say to some of those: a value of the wrong type is named, not met with a
# raw Python error from deep in the check (review H, S-H1 and S-H2).
SAYS: dict[tuple[str, int, str], str] = {
    ("transforms", 1, "a (loss, gradient) pair from jax.value_and_grad"): "not a tuple",
    ("transforms", 3, "the pullback's tuple, not the gradient in it"): "(g,) = pullback(",
    ("retracing", 1, "the right counts written as strings"): "to a number, not '1'",
}


def merged(*parts: dict[str, dict[int, list[Wrong]]]) -> dict[str, dict[int, list[Wrong]]]:
    """One table from several: the wrong answers of an exercise, in the order given."""
    table: dict[str, dict[int, list[Wrong]]] = {}
    for part in parts:
        for lab, exercises in part.items():
            for n, answers in exercises.items():
                table.setdefault(lab, {}).setdefault(n, []).extend(answers)
    return {lab: dict(sorted(table[lab].items())) for lab in sorted(table)}


WRONG = merged(
    ISSUE_36,
    REVIEWED,
    THIRD_READ,
    THIRD_READ_C,
    CONFIRMATION_READ,
    CONFIRMATION_READ_E,
    CONFIRMATION_READ_FG,
    CONFIRMATION_READ_H,
    FINAL_READ_IJ,
    LAST_READ_K,
    LAST_READ_L,
    LAST_READ_L4,
    OTHERS,
)
