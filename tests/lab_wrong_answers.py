"""Plausible wrong answers for every exercise of every lab: each must get "not yet".

`WRONG[lab][n]` lists `Wrong(label, kind, code)`: `code` replaces the lab's `answer-<n>` cell
(tests/lab_runner.py --wrong runs it after the cells before it, earlier exercises solved) and
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


WRONG: dict[str, dict[int, list[Wrong]]] = {
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
