"""Plausible wrong answers for every exercise of every lab: each must get "not yet".

One module per lab (`control_flow.py` for docs/labs/control-flow.ipynb), so that labs are
edited apart. Each holds `READS` (the wrong answers each read found passing, by read),
`OTHERS`, `RIGHT` (correct answers the solution does not write), `SAYS` (words a check must
use) and `GENERATED` (how its generated wrong answers are made, `_table.Generated`). This
package merges them into the tables the tests read: `WRONG[lab][n]` lists `Wrong(label,
kind, code)`: `code` replaces the lab's `answer-<n>` cell (tests/lab_runner.py runs it after
the cells before it, earlier exercises solved) and `check(n, problem_n)` must then print
`Exercise <n>: not yet: ...`. The kinds:

- "constant": a hard-coded or constant result, computed from nothing;
- "skips-technique": the right numbers on the check's own case, without the technique the
  exercise teaches;
- "uniform-only": right only on all-ones, all-zeros or otherwise uniform inputs;
- "n/a": the kind named by `label` cannot apply to this exercise; `code` then says why, and
  nothing runs.

tests/unit/test_lab_wrong_answers_cover.py requires one of each kind for every exercise;
tests/e2e/test_lab_wrong_answers.py runs them. docs/guide/labs.md says how to add one.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType

from ._table import (
    GENERATED_KINDS,
    KINDS,
    PREDICTION,
    Generated,
    Right,
    Wrong,
    generated,
    not_applicable,
    right,
    wrong,
)

__all__ = [
    "GENERATED_KINDS",
    "KINDS",
    "PREDICTION",
    "Generated",
    "Right",
    "Wrong",
    "generated",
    "not_applicable",
    "right",
    "wrong",
]

# The reads, in the order their answers are played within an exercise. ISSUE_36: the cases
# issue 36 found passing on the checks it reviewed; REVIEWED: those its reviewers ("Checks that
# cannot be fooled") saw pass after ISSUE_36's were fixed, and the second and third reviews of
# issue 37; THIRD_READ, THIRD_READ_C: the third read of issue 37 (reviewers A and C);
# CONFIRMATION_READ, _E, _FG, _H: its confirmation reads (reviewers D, E, F and G, H), with
# the next wrong answer a hostile reader would try; FINAL_READ_IJ: its final reads (I and J);
# LAST_READ_K, LAST_READ_L, LAST_READ_L4: its last reads (K, L) and last confirmation (L4);
# ISSUE_51: the wrong answers issue 51 quotes ("Labs that cannot be fooled by design").
# Each was red before its check was fixed.
READ_ORDER = (
    "ISSUE_36",
    "REVIEWED",
    "THIRD_READ",
    "THIRD_READ_C",
    "CONFIRMATION_READ",
    "CONFIRMATION_READ_E",
    "CONFIRMATION_READ_FG",
    "CONFIRMATION_READ_H",
    "FINAL_READ_IJ",
    "LAST_READ_K",
    "LAST_READ_L",
    "LAST_READ_L4",
    "ISSUE_51",
)


def _modules() -> list[ModuleType]:
    found = [m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_")]
    return [importlib.import_module(f"{__name__}.{name}") for name in sorted(found)]


LABS = {module.LAB: module for module in _modules()}


def _read(name: str) -> dict[str, dict[int, list[Wrong]]]:
    return {lab: m.READS[name] for lab, m in LABS.items() if name in m.READS}


def merged(*parts: dict[str, dict[int, list[Wrong]]]) -> dict[str, dict[int, list[Wrong]]]:
    """One table from several: the wrong answers of an exercise, in the order given."""
    table: dict[str, dict[int, list[Wrong]]] = {}
    for part in parts:
        for lab, exercises in part.items():
            for n, answers in exercises.items():
                table.setdefault(lab, {}).setdefault(n, []).extend(answers)
    return {lab: dict(sorted(table[lab].items())) for lab in sorted(table)}


ISSUE_36 = _read("ISSUE_36")
REVIEWED = _read("REVIEWED")
THIRD_READ = _read("THIRD_READ")
THIRD_READ_C = _read("THIRD_READ_C")
CONFIRMATION_READ = _read("CONFIRMATION_READ")
CONFIRMATION_READ_E = _read("CONFIRMATION_READ_E")
CONFIRMATION_READ_FG = _read("CONFIRMATION_READ_FG")
CONFIRMATION_READ_H = _read("CONFIRMATION_READ_H")
FINAL_READ_IJ = _read("FINAL_READ_IJ")
LAST_READ_K = _read("LAST_READ_K")
LAST_READ_L = _read("LAST_READ_L")
LAST_READ_L4 = _read("LAST_READ_L4")
ISSUE_51 = _read("ISSUE_51")
OTHERS = {lab: m.OTHERS for lab, m in LABS.items() if m.OTHERS}

WRONG = merged(*(_read(name) for name in READ_ORDER), OTHERS)
RIGHT: dict[str, dict[int, list[Right]]] = {lab: m.RIGHT for lab, m in LABS.items() if m.RIGHT}
SAYS: dict[tuple[str, int, str], str] = {
    (lab, n, label): words for lab, m in LABS.items() for (n, label), words in m.SAYS.items()
}
GENERATED: dict[str, dict[int, Generated]] = {
    lab: m.GENERATED for lab, m in LABS.items() if m.GENERATED
}
