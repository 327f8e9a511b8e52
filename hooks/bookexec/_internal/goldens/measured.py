"""Measured values in goldens: how they are written, shown, and judged against their golden.

Counts and other exact values must match exactly. Timings and ratios depend on the machine
and its load, so their values never fail a build: what fails is a claim, a comparison made
inside one run (one timing against another of the same block, or a ratio against a number).
A value that moved outside a band around its golden (a factor of 5 either way by default) is
only noted in the report, as measured by this build; the update mode does not rewrite it.
"""

from __future__ import annotations

import contextlib
import html
import math
import operator
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

DEFAULT_BAND = 5.0
SECTION = "--- facts ---\n"
_OPS = {">=": operator.ge, ">": operator.gt, "<=": operator.le, "<": operator.lt}
_LINE = re.compile(
    r"^(?P<name>\w+) = (?P<value>.*?)(?: (?P<kind>timing|ratio) \(band x(?P<band>[\d.]+)\))?$"
)
_CLAIM = re.compile(
    r"^claim: (?P<left>\w+) (?P<op>>=|>|<=|<) (?P<right>\S+)(?: \| the prose says: (?P<says>.*))?$"
)
_TYPED = re.compile(r"^(?P<name>\w+) = (?P<value>.*) \(exact\)$")
TOKEN = re.compile(r"⟦(\w+)⟧")
# A measured value as a block prints it (`bookexec.facts.Measured`): its name and the digits
# the code printed. The page shows the digits; the golden keeps only the name (`mask`).
PRINTED = re.compile(r"⟦(\w+)(?:=([^⟦⟧\n]*))?⟧")
# An exact fact whose text would read back as another kind (it ends like a measured value's
# line, or like this marker) is stored with this marker after it: the golden says its kind.
EXACT = " (exact)"


def _typed(value: str) -> bool:
    """Whether an exact text must say its kind in the golden to be read back as exact."""
    found = _LINE.match(f"n = {value}")
    return value.endswith(EXACT) or (found is not None and found["kind"] is not None)


@dataclass(frozen=True)
class Fact:
    """A value a snippet recorded: exact (a count, a name) or measured (a timing, a ratio)."""

    name: str
    kind: str  # "exact", "timing" or "ratio"
    value: float | int | str
    band: float | None = None  # None for exact values

    @property
    def banded(self) -> bool:
        """Measured values are judged by band; exact ones must match."""
        return self.kind != "exact"

    def shown(self) -> str:
        """The value as a reader sees it, on the page and in the prose."""
        if self.kind == "timing":
            return seconds(float(self.value))
        if self.kind == "ratio":
            return ratio(float(self.value))
        return str(self.value)

    def line(self) -> str:
        """The fact as a golden records it."""
        if not self.banded:
            typed = isinstance(self.value, str) and _typed(self.value)
            return f"{self.name} = {self.value}{EXACT if typed else ''}"
        unit = " s" if self.kind == "timing" else ""
        return f"{self.name} = {float(self.value):.4g}{unit} {self.kind} (band x{self.band:g})"


@dataclass(frozen=True)
class Claim:
    """A comparison the prose makes between recorded values; the check requires it."""

    left: str
    op: str
    right: str | float
    says: str = ""  # the sentence of the prose this claim stands behind, for reviewers

    def line(self) -> str:
        """The claim as a golden records it, with the sentence it stands behind."""
        right = f"{self.right:g}" if isinstance(self.right, (int, float)) else self.right
        says = f" | the prose says: {self.says}" if self.says else ""
        return f"claim: {self.left} {self.op} {right}{says}"


def mask(output: str) -> str:
    """A block's output as its golden keeps it: each measured value's printed digits taken
    out, its placeholder left (`⟦name=1.19⟧ ms` becomes `⟦name⟧ ms`)."""
    return PRINTED.sub(lambda m: f"⟦{m[1]}⟧", output)


def seconds(value: float) -> str:
    """A duration in three figures with its unit: s, ms, µs or ns."""
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if value >= scale:
            return f"{_three_figures(value / scale)} {unit}"
    return f"{_three_figures(value / 1e-9)} ns"


def ratio(value: float) -> str:
    """A ratio in three figures."""
    return _three_figures(value)


def _three_figures(value: float) -> str:
    if value >= 100:
        return f"{value:,.0f}"
    return f"{value:.3g}"


def from_worker(
    facts: list[dict[str, object]], claims: list[dict[str, object]], default_band: float
) -> tuple[list[Fact], list[Claim]]:
    """The worker's plain records (`bookexec.facts.take`) as Facts and Claims, each banded fact
    with its band; a record of another shape is a ValueError that shows it."""
    made: list[Fact] = []
    for f in facts:
        match f:
            case {
                "name": str(name),
                "kind": str(kind),
                "value": int() | float() | str() as value,
                "band": None | int() | float() as band,
            }:
                made.append(
                    Fact(name, kind, value, (band or default_band) if kind != "exact" else None)
                )
            case _:
                raise ValueError(f"a worker recorded a fact of an unknown shape: {f!r}")
    said: list[Claim] = []
    for c in claims:
        match c:
            case {"left": str(left), "op": str(op), "right": int() | float() | str() as right}:
                says = c.get("says", "")
                said.append(Claim(left, op, right, says if isinstance(says, str) else str(says)))
            case _:
                raise ValueError(f"a worker recorded a claim of an unknown shape: {c!r}")
    return made, said


def render(facts: list[Fact], claims: list[Claim]) -> str:
    """A golden's section of recorded values, empty when there are none."""
    if not facts and not claims:
        return ""
    lines = [fact.line() for fact in facts] + [claim.line() for claim in claims]
    return SECTION + "".join(line + "\n" for line in lines)


def parse(section: str) -> tuple[list[Fact], list[Claim]]:
    """The facts and claims of a golden's recorded-values section."""
    facts, claims = [], []
    for line in section.splitlines():
        if found := _CLAIM.match(line):
            right = found["right"]
            with contextlib.suppress(ValueError):
                right = float(right)
            claims.append(Claim(found["left"], found["op"], right, found["says"] or ""))
        elif found := _TYPED.match(line):  # an exact text that says its kind
            facts.append(Fact(found["name"], "exact", found["value"]))
        elif found := _LINE.match(line):
            kind = found["kind"] or "exact"
            value: float | str = found["value"]
            try:
                if kind != "exact":
                    value = float(found["value"].removesuffix(" s"))
                band = float(found["band"]) if found["band"] else None
            except ValueError:
                continue  # a damaged line: the fact is missing, which is drift
            facts.append(Fact(found["name"], kind, value, band))
    return facts, claims


def masked(facts: list[Fact], claims: list[Claim]) -> str:
    """The parts that must match exactly: names, kinds, bands, exact values and claims."""
    lines = [
        f"{f.name} = {f.value}" if not f.banded else f"{f.name} = ~ {f.kind} (band x{f.band:g})"
        for f in facts
    ]
    return "\n".join(lines + [claim.line() for claim in claims])


def band_notes(golden: list[Fact], current: list[Fact]) -> list[str]:
    """Timings and ratios that moved outside the band around their golden value, in words.

    A note, never drift: the golden may have been measured on another machine or under
    another load, so only a comparison inside one run (a claim) can fail the build."""
    reasons = []
    now = {fact.name: fact for fact in current}
    for old in golden:
        new = now.get(old.name)
        if not old.banded or new is None or not new.banded:
            continue
        band = old.band or DEFAULT_BAND
        low, high = float(old.value) / band, float(old.value) * band
        if not low <= float(new.value) <= high:
            reasons.append(
                f"{old.kind} {old.name} = {new.shown()} measured by this build, outside x{band:g} "
                f"of the golden's {old.shown()} ({Fact('', old.kind, low).shown()} to "
                f"{Fact('', old.kind, high).shown()}): another machine or load; not drift"
            )
    return reasons


def _with_sides(
    facts: list[Fact], claims: list[Claim]
) -> Iterator[tuple[Claim, tuple[Fact, Fact | float] | None]]:
    """Each claim with its two sides among these values (a number stands for itself), or with
    None when it names a value not recorded."""
    values = {fact.name: fact for fact in facts}
    for claim in claims:
        left = values.get(claim.left)
        right = values.get(claim.right) if isinstance(claim.right, str) else claim.right
        yield claim, (None if left is None or right is None else (left, right))


def broken_claims(facts: list[Fact], claims: list[Claim]) -> list[str]:
    """Each claim that does not hold for these values, in words."""
    broken = []
    for claim, pair in _with_sides(facts, claims):
        if pair is None:
            broken.append(f"{claim.line()} names a value this block did not record")
            continue
        left, right = pair
        left_value = _as_number(left.value)
        right_value = _as_number(right.value if isinstance(right, Fact) else right)
        if left_value is None or right_value is None:
            side = claim.left if left_value is None else str(claim.right)
            broken.append(f"{claim.line()} compares {side}, which is not a finite number")
            continue
        if not _OPS[claim.op](left_value, right_value):
            detail = f"{claim.left} = {left.shown()}"
            if isinstance(right, Fact):
                detail += f", {claim.right} = {right.shown()}"
            broken.append(f"{claim.line()} no longer holds: {detail}")
    return broken


def _as_number(value: float | int | str) -> float | None:
    """A side of a claim as a number (a golden holds a count as text), or None for a text or a
    value no float holds."""
    try:
        number = float(value)
    except (ValueError, OverflowError):
        return None
    return number if math.isfinite(number) else None


def margin(op: str, left: float, right: float) -> float:
    """How many times over `left op right` holds: left/right for `>` and `>=`, right/left for
    `<` and `<=`; above 1 when it holds, below when it does not."""
    big, small = (left, right) if op in (">=", ">") else (right, left)
    if small <= 0:
        return math.inf if big > 0 else 0.0
    return big / small


def claim_values(facts: list[Fact], claims: list[Claim]) -> list[dict[str, Any]]:
    """Each claim with the values it compared in this run, for `./book stress`'s margins.
    `measured` says whether a side is a timing or a ratio: a claim between exact values (counts)
    holds or not on any machine, so only a measured claim's margin says anything about load."""
    found = []
    for claim, pair in _with_sides(facts, claims):
        if pair is None:
            continue  # broken_claims names it; no value to record
        left, right = pair
        sides = [left, right] if isinstance(right, Fact) else [left]
        try:  # a golden holds an exact value as text: a count reads back as a number
            left_value = float(left.value)
            right_value = float(right.value) if isinstance(right, Fact) else float(right)
        except ValueError:
            continue  # a name, not a number: broken_claims says so
        found.append(
            {
                "claim": claim.line().split(" | ")[0].removeprefix("claim: "),
                "op": claim.op,
                "right": claim.right,
                "left_value": left_value,
                "right_value": right_value,
                "measured": any(side.banded for side in sides),
                "holds": _OPS[claim.op](left_value, right_value),
                "margin": margin(claim.op, left_value, right_value),
            }
        )
    return found


def substitute(text: str, facts: list[Fact], marked: bool = False) -> str:
    """Put each fact's value where the output printed its placeholder.

    With `marked`, timings and ratios go in as tokens that `unmark` turns into marked HTML
    once markdown-exec and Pygments have rendered the output around them.
    """
    values = {
        fact.name: _token(fact.shown()) if marked and fact.banded else fact.shown()
        for fact in facts
    }
    return TOKEN.sub(lambda m: values.get(m[1], m[0]), text)


# Every value that differs from build to build is in one element of this class, so a reader's
# tools and the determinism test can tell it from everything else on the page.
MARK_CLASS = "executed-book-measured"
# Letters and hex digits only: no lexer splits it and no escaping changes it.
_MARK_TOKEN = re.compile(r"bookexecvalue([0-9a-f]+)x")


def html_mark(escaped: str) -> str:
    """An escaped measured value, marked for the page's styling."""
    return f'<span class="{MARK_CLASS}">{escaped}</span>'


def _token(value: str) -> str:
    return f"bookexecvalue{value.encode().hex()}x"


def unmark(rendered: str) -> str:
    """Turn the tokens of `substitute(..., marked=True)` into marked, escaped values."""
    return _MARK_TOKEN.sub(
        lambda m: html_mark(html.escape(bytes.fromhex(m[1]).decode(), quote=False)), rendered
    )
