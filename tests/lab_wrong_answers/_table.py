"""What a lab's table of answers is made of: `wrong`, `right`, `not_applicable` and
`Generated` (each lab's module in this package uses them)."""

from __future__ import annotations

from textwrap import dedent
from typing import NamedTuple

KINDS = ("constant", "skips-technique", "uniform-only")
# The generated wrong answers of an exercise (tests/lab_runner.py makes them from its worked
# solution): (a) its outputs on the check's own inputs, looked up; (b) its result only for the
# inputs the lab's text mentions; (c) the solution with one primitive swapped.
GENERATED_KINDS = ("hard-coded", "mentioned-only", "swapped")


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


class Right(NamedTuple):
    label: str
    code: str  # the answer cell's replacement: a correct answer the lab's solution does not write


def right(label: str, code: str) -> Right:
    return Right(label, dedent(code).strip() + "\n")


class Generated(NamedTuple):
    """How exercise n's generated wrong answers are made from its `solution-<n>` cell.

    `function` is the name the answer cell defines. (a) "hard-coded": the solution run under
    the check once, each call's arguments and result recorded, then an answer that looks its
    arguments up in that record (the first result when they are not there): right only if
    the check draws the same inputs again. (b) "mentioned-only": the solution for arguments
    shaped like one of `mentioned` (code for argument tuples, such as "(v, limit)", the inputs
    the lab's text shows), and the result for the first of them otherwise. (c) "swapped": for
    each `(old, new)` of `swaps`, the solution cell with `old` replaced by `new` (one primitive
    for another, a loop unrolled); `old` must be in the cell. `why_not` excuses a kind, by
    name, with the reason it cannot apply.
    """

    function: str
    mentioned: tuple[str, ...] = ()
    swaps: tuple[tuple[str, str], ...] = ()
    why_not: tuple[tuple[str, str], ...] = ()


def generated(
    function: str,
    *,
    mentioned: tuple[str, ...] = (),
    swaps: tuple[tuple[str, str], ...] = (),
    why_not: dict[str, str] | None = None,
) -> Generated:
    return Generated(function, mentioned, swaps, tuple((why_not or {}).items()))


PREDICTION = (
    "a prediction of the check's own fixed program: there is no input to make uniform, "
    "and a wrong guess is the constant kind"
)

# A lab's wrong answers by read: read name -> exercise -> answers.
Reads = dict[str, dict[int, list[Wrong]]]
