"""One block's golden compared with this build's output, and the drift's class."""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from bookexec.goldens import measured
from bookexec.goldens.measured import Claim, Fact
from bookexec.goldens.store import Parsed, golden_path, parse, read_golden, relative, render

COSMETIC = "cosmetic"
STRUCTURAL = "structural"
TEXT = "text"  # the programs are the same (or there are none), other text changed
_SAME_PROGRAM = (
    "the same program: only variable letters, line wrapping, parameter order "
    "or the order of independent equations changed"
)


@dataclass
class Drift:
    """How two outputs differ: the class, what changed in words, and the aligned diff."""

    kind: str  # COSMETIC, STRUCTURAL or TEXT
    changes: list[str] = field(default_factory=list)
    diff: str = ""  # for structural drift: the aligned program diff

    def headline(self) -> str:
        """The class and what changed, in one line."""
        if self.kind == COSMETIC:
            return "cosmetic: " + "; ".join(self.changes or [_SAME_PROGRAM])
        return f"{self.kind}: " + "; ".join(self.changes or ["the output changed"])


Classifier = Callable[[str, str], Drift]  # (golden output, new output) -> its drift's class


def text_drift(old: str, new: str) -> Drift:
    """Plain text: cosmetic when only whitespace differs, else text drift."""
    if old.split() == new.split():
        return Drift(COSMETIC, ["only whitespace changed"] if old != new else [])
    return Drift(TEXT, ["the output changed"])


@dataclass
class Comparison:
    """One block's golden, compared with this build's output and measured values."""

    page: str
    block_id: str
    snippet: str
    path: Path
    expected: str | None  # the golden on disk, None if missing
    actual: str  # what the update mode would write now
    status: str = "new"  # "ok", "drifted" or "new"
    reasons: list[str] = field(default_factory=list)  # band and claim failures, in words
    broken: list[str] = field(default_factory=list)  # claims that do not hold: never accepted
    classifier: Classifier = text_drift  # the runtime's reading of an output's drift

    def diff(self, root: Path) -> str:
        rel = relative(self.path, root)
        lines = difflib.unified_diff(
            (self.expected or "").splitlines(keepends=True),
            self.actual.splitlines(keepends=True),
            fromfile=f"{rel} (golden)",
            tofile=f"docs/{self.page}#{self.block_id} (this build)",
        )
        return "".join(line if line.endswith("\n") else line + "\n" for line in lines)

    def notes(self) -> list[str]:
        """Everything to say in words before the diff: the drift's class first."""
        drift = self.drift()
        return [*([drift.headline()] if drift else []), *self.reasons]

    def drift(self) -> Drift | None:
        """The drift's class, as the runtime's classifier reads the outputs; None unless drifted."""
        if self.status != "drifted" or self.expected is None:
            return None
        return classify(parse(self.expected), parse(self.actual), self.reasons, self.classifier)

    @property
    def kind(self) -> str:
        """What a reviewer sees first: 'new', 'cosmetic', 'structural', 'text' or 'ok'."""
        drift = self.drift()
        return drift.kind if drift else self.status


def classify(
    old: Parsed, new: Parsed, reasons: list[str], classifier: Classifier = text_drift
) -> Drift:
    """The class of one golden's drift. A changed header alone (a new version that prints the
    same text) is cosmetic; a changed count, band or claim is 'text' drift."""
    drift = classifier(old.output, new.output)
    old_exact = {f.name: f.value for f in old.facts if not f.banded}
    new_exact = {f.name: f.value for f in new.facts if not f.banded}
    changes = [
        f"{name} = {old_exact.get(name, '(none)')} -> {new_exact.get(name, '(none)')}"
        for name in sorted(old_exact.keys() | new_exact.keys())
        if old_exact.get(name) != new_exact.get(name)
    ]
    old_values = measured.masked(old.facts, old.claims)
    if not changes and old_values != measured.masked(new.facts, new.claims):
        changes.append("the recorded values' names, bands or claims changed")
    if reasons:
        changes.append("measured values left their band or claims broke")
    if not changes and old.output == new.output:
        return Drift(COSMETIC, ["the output is the same; only the header changed"])
    if not changes:
        return drift
    if drift.kind == STRUCTURAL:
        return Drift(drift.kind, [*drift.changes, *changes], drift.diff)
    return Drift(TEXT, [*drift.changes, *changes])


def compare(
    golden_dir: Path,
    page: str,
    block_id: str,
    snippet: str,
    output: str,
    facts: list[Fact] | None = None,
    claims: list[Claim] | None = None,
    classifier: Classifier = text_drift,
) -> Comparison:
    """Text and counts compare exactly; timings and ratios by band; every claim must hold."""
    path = golden_path(golden_dir, page, block_id)
    facts, claims = list(facts or []), list(claims or [])
    body = output + measured.render(facts, claims)
    actual = render(page, block_id, snippet, body)
    expected, damage = read_golden(path)
    result = Comparison(page, block_id, snippet, path, expected, actual, classifier=classifier)
    result.broken = measured.broken_claims(facts, claims)
    if expected is None:
        result.reasons = list(result.broken)
        return result
    old, new = parse(expected), parse(actual)
    damaged = [damage] if damage else []
    result.reasons = damaged + measured.band_failures(old.facts, facts) + result.broken
    result.status = "ok" if old.exact() == new.exact() and not result.reasons else "drifted"
    return result
