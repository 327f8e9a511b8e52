"""One block's golden compared with this build's output, and the drift's class.

The class of a changed output comes from a classifier the caller passes (the language runtime
knows its outputs: the book's reads jaxprs as programs); the default reads plain text.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from types import MappingProxyType

from bookexec._internal.discover import memo
from bookexec._internal.goldens import images, masks, measured
from bookexec._internal.goldens.images import ImageCheck
from bookexec._internal.goldens.masks import Mask
from bookexec._internal.goldens.measured import Claim, Fact
from bookexec._internal.goldens.store import (
    Parsed,
    body,
    existing_goldens,
    golden_path,
    parse,
    read_golden,
    relative,
    render,
    written_by,
)

COSMETIC = "cosmetic"  # nothing a reader would read differently changed
STRUCTURAL = "structural"  # what the output describes changed (a jaxpr's program)
TEXT = "text"  # other text, a count, a band option or a claim changed
# Each class in words a report can say of any output; a runtime names its own
# (`Runtime.drift_words`: the JAX runtime's structural drift is a jaxpr's program changed).
PLAIN_WORDS: Mapping[str, str] = MappingProxyType(
    {
        STRUCTURAL: "what an output describes changed",
        TEXT: "other output, counts or claims",
        COSMETIC: "only whitespace or the header",
    }
)


@dataclass(frozen=True)
class Snapshot:
    """Every golden as it was before any block ran: what the build judges against.

    Read once, when the build starts, so that a block which writes a golden (its own or
    another's) while it runs cannot change the verdict on itself; the new and stale lists come
    from it too.
    """

    golden_dir: Path
    texts: dict[Path, tuple[str | None, str | None]]  # path -> (text, what is wrong with it)
    # The folders read at the start, when not the whole of `golden_dir` (`read`'s `within`).
    within: tuple[Path, ...] | None = None

    @classmethod
    def read(
        cls,
        golden_dir: Path,
        within: tuple[Path, ...] | None = None,
        kept: GoldenReads | None = None,
    ) -> Snapshot:
        """Read every golden under the folder now; with `within`, only those under these
        folders (GOLDEN_ONLY: the only goldens the build judges or writes): any other is
        read when asked for, as nothing writes it before the build ends. `kept`: under
        serve, the last build's reads, reused for the goldens unchanged since."""
        found = existing_goldens(golden_dir) if within is None else set()
        for folder in within or ():
            found |= existing_goldens(folder)
        if kept is None:
            texts = {path: read_golden(path, inside=golden_dir) for path in sorted(found)}
        else:
            texts = {path: _reread(path, golden_dir, kept) for path in sorted(found)}
            for gone in set(kept) - found:
                del kept[gone]
        return cls(golden_dir, texts, within)

    def _later(self, path: Path) -> bool:
        """A golden this snapshot reads when asked for, not at the start."""
        return self.within is not None and not any(path.is_relative_to(f) for f in self.within)

    def golden(self, path: Path) -> tuple[str | None, str | None]:
        """A golden's text and damage as `read_golden` gave them at the start; (None, None)
        for one that did not exist."""
        if path not in self.texts and self._later(path):
            return read_golden(path, inside=self.golden_dir)
        return self.texts.get(path, (None, None))

    def paths(self, folder: Path | None = None) -> set[Path]:
        """The goldens that existed at the start (under `folder` only, when given)."""
        if folder is not None:
            read = folder if not self._later(folder) else None  # read at the start
            found = set(self.texts) if read is not None else self.paths()
            return {path for path in found if path.is_relative_to(folder)}
        if self.within is None:
            return set(self.texts)
        later = {path for path in existing_goldens(self.golden_dir) if self._later(path)}
        return set(self.texts) | later


# Under serve, each golden's last read, with the file as it was then (`discover.memo`).
GoldenReads = dict[Path, tuple[memo.Seen, tuple[str | None, str | None]]]


def _reread(path: Path, golden_dir: Path, kept: GoldenReads) -> tuple[str | None, str | None]:
    """A golden's text and damage: the last build's, when the file is as it was then."""
    held = kept.get(path)
    if held is not None and held[0] == memo.seen(path):
        return held[1]
    when = memo.stamp(path)  # before the read: a write during it shows at the next build
    read = read_golden(path, inside=golden_dir)
    kept[path] = (when, read)
    return read


@dataclass
class Drift:
    """How two outputs differ: the class, what changed in words, and an aligned diff if any."""

    kind: str  # COSMETIC, STRUCTURAL or TEXT
    changes: list[str] = field(default_factory=list)
    diff: str = ""  # for structural drift: the classifier's aligned diff

    def headline(self) -> str:
        """The class and what changed, on one line: what a reviewer reads first."""
        return f"{self.kind}: " + "; ".join(self.changes or ["the output changed"])


Classifier = Callable[[str, str], Drift]  # (golden's output, this build's output) -> class


def plain_text(old: str, new: str) -> Drift:
    """The default classifier: text drift, cosmetic when only the whitespace between words
    changed."""
    if old.split() == new.split():
        return Drift(COSMETIC, ["only whitespace changed"])
    return Drift(TEXT)


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
    reasons: list[str] = field(default_factory=list)  # claim failures and damage, in words
    # Timings and ratios outside their band around the golden: shown, noted, never drift.
    moved: list[str] = field(default_factory=list)
    broken: list[str] = field(default_factory=list)  # claims that do not hold: never accepted
    classify: Classifier = field(default=plain_text, repr=False, compare=False)
    docs: str = "docs"  # the book's docs_dir, as messages name it (`Block.docs`)
    # The output's images, stored beside the golden and compared by pixels (`goldens.images`).
    images: list[ImageCheck] = field(default_factory=list)

    def diff(self, root: Path) -> str:
        """The unified diff from the golden to this build's golden text."""
        rel = relative(self.path, root)
        lines = difflib.unified_diff(
            (self.expected or "").splitlines(keepends=True),
            self.actual.splitlines(keepends=True),
            fromfile=f"{rel} (golden)",
            tofile=f"{self.docs}/{self.page}#{self.block_id} (this build)",
        )
        return "".join(line if line.endswith("\n") else line + "\n" for line in lines)

    def notes(self) -> list[str]:
        """Everything to say in words before the diff: the drift's class first."""
        drift = self.drift()
        return [*([drift.headline()] if drift else []), *self.reasons]

    def drift(self) -> Drift | None:
        """The drift's class, read by the classifier; None unless drifted."""
        return self._drift

    @cached_property
    def _drift(self) -> Drift | None:
        # Parsed and classified once: the report, the review and serve's warning all ask.
        if self.status != "drifted" or self.expected is None:
            return None
        old, new = parse(self.expected), parse(self.actual)
        drift = _classify(old, new, self.reasons, self.classify)
        changed = [image.words for image in self.images if image.changed]
        if not changed:
            return drift
        if old.exact() == new.exact():  # the text holds: only images changed
            return Drift(TEXT, changed)
        kind = STRUCTURAL if drift.kind == STRUCTURAL else TEXT
        return Drift(kind, [*changed, *drift.changes], drift.diff)

    @property
    def kind(self) -> str:
        """What a reviewer sees first: 'new', 'cosmetic', 'structural', 'text' or 'ok'."""
        drift = self.drift()
        return drift.kind if drift else self.status


def _classify(old: Parsed, new: Parsed, reasons: list[str], classify: Classifier) -> Drift:
    """The class of one golden's drift. A changed header alone (new versions that print the
    same text) is cosmetic; what the classifier calls text, a count, a band or a claim is
    'text' drift."""
    drift = classify(old.output, new.output) if old.output != new.output else Drift(COSMETIC)
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
        changes.append("claims broke or the golden is damaged")
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
    classify: Classifier = plain_text,
    snapshot: Snapshot | None = None,
    launcher: str = "",
    docs: str = "docs",
    rules: Sequence[Mask] = (),
) -> Comparison:
    """Text and counts compare exactly; every claim must hold. Timings and ratios are this
    build's: one outside its band is a note (`moved`), not drift, so a golden written on
    another machine never fails the check by its times. A drifted output's class is
    `classify`'s (the default reads plain text). The golden is the `snapshot`'s,
    taken before any block ran, or read now without one. The golden it would write names the
    book's update command (`launcher`'s, `store.written_by`); `docs` is the book's docs_dir,
    which the golden's header and every message name (`Block.docs`). The author's masks
    (`rules`) that apply to the block change the output compared and stored, and only that."""
    path = golden_path(golden_dir, page, block_id)
    facts, claims = list(facts or []), list(claims or [])
    masked = masks.apply(output, rules, page, block_id)
    text, found = images.extract(
        masked, block_id, lambda svg: masks.apply(svg, rules, page, block_id)
    )
    stored = body(text, facts, claims)
    actual = render(page, block_id, snippet, stored, written_by(launcher), docs=docs)
    expected, damage = snapshot.golden(path) if snapshot else read_golden(path, inside=golden_dir)
    result = Comparison(
        page, block_id, snippet, path, expected, actual, classify=classify, docs=docs
    )
    result.broken = measured.broken_claims(facts, claims)
    result.images = images.check(path, expected, found)
    if expected is None:
        result.reasons = list(result.broken)
        return result
    old, new = parse(expected), parse(actual)
    damaged = [damage] if damage else []
    result.reasons = damaged + result.broken
    result.moved = measured.band_notes(old.facts, facts)
    same = old.exact() == new.exact() and not any(image.changed for image in result.images)
    result.status = "ok" if same and not result.reasons else "drifted"
    return result
