"""Golden files: one plain-text file per block, its header saying where it came from.

A golden is written only by the update mode. Check mode compares the whole file, header and
body, with what the update mode would write now, so one changed character anywhere is drift.
"""

from __future__ import annotations

import difflib
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from bookexec import jaxpr_diff, measured
from bookexec.errors import BookError
from bookexec.measured import Claim, Fact

MODES = ("check", "update")
_SEPARATOR = "---\n"
_HEADER_KEYS = ("block", "snippet", "written-by", "jax", "jaxlib", "python", "backend")


def mode_from_env(environ: dict[str, str] | os._Environ = os.environ) -> str:
    mode = environ.get("GOLDEN", "check") or "check"
    if mode not in MODES:
        raise BookError(f"GOLDEN={mode!r} is not a mode; use GOLDEN=check or GOLDEN=update")
    return mode


@dataclass(frozen=True)
class Provenance:
    jax: str
    jaxlib: str
    python: str
    backend: str


def golden_path(golden_dir: Path, page: str, block_id: str) -> Path:
    """docs/tracers.md, block 'scalar-jaxpr' -> tests/golden/tracers/scalar-jaxpr.txt"""
    return golden_dir / PurePosixPath(page).with_suffix("") / f"{block_id}.txt"


def render(page: str, block_id: str, snippet: str, body: str, prov: Provenance) -> str:
    header = {
        "block": f"docs/{page}#{block_id}",
        "snippet": snippet,
        "written-by": "GOLDEN=update mkdocs build (never edit by hand)",
        "jax": prov.jax,
        "jaxlib": prov.jaxlib,
        "python": prov.python,
        "backend": prov.backend,
    }
    return "".join(f"{key}: {header[key]}\n" for key in _HEADER_KEYS) + _SEPARATOR + body


@dataclass(frozen=True)
class Parsed:
    """A golden's parts: its header, the block's output, and the recorded values."""

    header: str
    output: str
    facts: list[Fact]
    claims: list[Claim]

    def header_fields(self) -> dict[str, str]:
        pairs = (line.split(": ", 1) for line in self.header.splitlines() if ": " in line)
        return dict(pairs)

    def exact(self) -> str:
        """Everything that must match exactly: all but the measured values themselves."""
        return self.header + self.output + measured.masked(self.facts, self.claims)


def parse(text: str) -> Parsed:
    header, _, body = text.partition(_SEPARATOR)
    output, section = measured.split_body(body)
    facts, claims = measured.parse(section)
    return Parsed(header, output, facts, claims)


def write_atomic(path: Path, text: str) -> None:
    """Write to a temporary file beside the target, then rename over it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


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

    def diff(self, root: Path) -> str:
        rel = _rel(self.path, root)
        lines = difflib.unified_diff(
            (self.expected or "").splitlines(keepends=True),
            self.actual.splitlines(keepends=True),
            fromfile=f"{rel} (golden)",
            tofile=f"docs/{self.page}#{self.block_id} (this build)",
        )
        return "".join(line if line.endswith("\n") else line + "\n" for line in lines)

    def notes(self) -> list[str]:
        """Everything to say in words before the diff."""
        jaxpr = self.jaxpr_note() if self.status == "drifted" else None
        return [*self.reasons, *([jaxpr] if jaxpr else [])]

    def jaxpr_note(self) -> str | None:
        """What kind of change a drifted jaxpr is: re-lettering, primitives, types or flow."""
        if self.expected is None:
            return None
        return jaxpr_diff.classify(parse(self.expected).output, parse(self.actual).output)

    def version_note(self) -> str | None:
        """Say so when the golden came from another JAX or jaxlib than the one running."""
        if self.expected is None:
            return None
        old, new = parse(self.expected).header_fields(), parse(self.actual).header_fields()
        changed = [
            f"{key} {old.get(key, '?')} -> {new[key]}"
            for key in ("jax", "jaxlib", "python", "backend")
            if old.get(key) != new.get(key)
        ]
        return ", ".join(changed) or None


def compare(
    golden_dir: Path,
    page: str,
    block_id: str,
    snippet: str,
    output: str,
    prov: Provenance,
    facts: list[Fact] = (),
    claims: list[Claim] = (),
) -> Comparison:
    """Text and counts compare exactly; timings and ratios by band; every claim must hold."""
    path = golden_path(golden_dir, page, block_id)
    body = output + measured.render(list(facts), list(claims))
    actual = render(page, block_id, snippet, body, prov)
    expected = path.read_text(encoding="utf-8") if path.is_file() else None
    result = Comparison(page, block_id, snippet, path, expected, actual)
    result.broken = measured.broken_claims(list(facts), list(claims))
    if expected is None:
        result.reasons = list(result.broken)
        return result
    old, new = parse(expected), parse(actual)
    result.reasons = measured.band_failures(old.facts, list(facts)) + result.broken
    result.status = "ok" if old.exact() == new.exact() and not result.reasons else "drifted"
    return result


def existing_goldens(golden_dir: Path) -> set[Path]:
    if not golden_dir.is_dir():
        return set()
    return {path for path in golden_dir.rglob("*.txt") if not path.name.startswith(".")}


def _rel(path: Path, root: Path) -> str:
    try:
        return str(path.relative_to(root))
    except ValueError:
        return str(path)


@dataclass
class Report:
    """Everything the build learned about its goldens, and how to say it."""

    root: Path
    golden_dir: Path
    comparisons: list[Comparison]
    stale: list[Path]

    def count(self, status: str) -> int:
        return sum(c.status == status for c in self.comparisons)

    @property
    def failed(self) -> bool:
        return bool(self.stale) or any(c.status != "ok" for c in self.comparisons)

    def version_notes(self) -> list[str]:
        notes = {c.version_note() for c in self.comparisons if c.status == "drifted"}
        return sorted(note for note in notes if note)

    def check_lines(self) -> list[str]:
        """The check-mode report: version changes first, then each problem with its diff."""
        out: list[str] = []
        for note in self.version_notes():
            out.append(f"goldens were written under another version: {note}")
        for c in self.comparisons:
            if c.status == "ok":
                continue
            if c.page.endswith(".ipynb"):  # a lab: its cells are the blocks
                where = f"lab docs/{c.page}, cell '{c.block_id}'"
            else:
                where = f"page docs/{c.page}, block '{c.block_id}', snippet {c.snippet}"
            head = f"{c.status.upper()}: {where}, golden {_rel(c.path, self.root)}"
            reasons = "".join(f"\n  {note}" for note in c.notes())
            if c.status == "new":
                out.append(f"{head}{reasons}\n  no golden yet; run GOLDEN=update to write it")
            else:
                out.append(f"{head}{reasons}\n{c.diff(self.root).rstrip()}")
        for path in self.stale:
            out.append(
                f"STALE: golden {_rel(path, self.root)} has no block in the book; "
                "GOLDEN=update deletes it"
            )
        return out

    def summary(self) -> str:
        return (
            f"golden check: {len(self.comparisons)} blocks checked, {self.count('drifted')} "
            f"drifted, {self.count('new')} new, {len(self.stale)} stale"
        )

    def apply_update(self) -> list[str]:
        """Rewrite drifted and new goldens, delete stale ones; return what changed.

        A claim that does not hold is never accepted: the prose would be false.
        """
        broken = [f"docs/{c.page}#{c.block_id}: {b}" for c in self.comparisons for b in c.broken]
        if broken:
            raise BookError(
                "claims that do not hold, so no golden was written:\n" + "\n".join(broken)
            )
        changes: list[str] = []
        for c in self.comparisons:
            if c.status == "ok":
                continue
            write_atomic(c.path, c.actual)
            verb = "wrote new" if c.status == "new" else "rewrote"
            changes.append(f"{verb} {_rel(c.path, self.root)}")
        for path in self.stale:
            path.unlink()
            changes.append(f"deleted stale {_rel(path, self.root)}")
            _prune_empty(path.parent, self.golden_dir)
        return changes

    def update_summary(self) -> str:
        return (
            f"golden update: {len(self.comparisons)} blocks checked, {self.count('drifted')} "
            f"rewritten, {self.count('new')} new, {len(self.stale)} stale deleted"
        )


def _prune_empty(folder: Path, golden_dir: Path) -> None:
    while folder != golden_dir and folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()
        folder = folder.parent
