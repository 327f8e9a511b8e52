"""Golden files: one plain-text file per block, its header saying which block wrote it.

A golden is written only by the update mode. Check mode compares the whole file, header and
body, with what the update mode would write now, so one changed character anywhere is drift.

The versions the goldens were written under (JAX, jaxlib, Python, backend) live in one file,
`tests/golden/VERSIONS`, not in each golden: after an upgrade that leaves a block's output
alone, its golden stays byte for byte the same, and `git diff tests/golden` shows only the
blocks whose output changed, plus that one file.
"""

from __future__ import annotations

import difflib
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from bookexec.errors import BookError
from bookexec.goldens import measured
from bookexec.goldens.measured import Claim, Fact
from bookexec.jax import diff as jaxpr_diff

MODES = ("check", "update")
_SEPARATOR = "---\n"
_HEADER_KEYS = ("block", "snippet", "written-by")
VERSIONS_FILE = "VERSIONS"
_VERSION_KEYS = ("jax", "jaxlib", "python", "backend")
_VERSIONS_HEAD = (
    "# Written by GOLDEN=update mkdocs build (never edit by hand): the versions every golden\n"
    "# in this folder was last written or checked under.\n"
)


def mode_from_env(environ: dict[str, str] | os._Environ = os.environ) -> str:
    mode = environ.get("GOLDEN", "check") or "check"
    if mode not in MODES:
        raise BookError(f"GOLDEN={mode!r} is not a mode; use GOLDEN=check or GOLDEN=update")
    return mode


@dataclass(frozen=True)
class Provenance:
    """What produced a set of outputs: the versions and the backend."""

    jax: str
    jaxlib: str
    python: str
    backend: str

    def text(self) -> str:
        return _VERSIONS_HEAD + "".join(f"{key}: {getattr(self, key)}\n" for key in _VERSION_KEYS)

    def describe(self) -> str:
        return f"jax {self.jax} (jaxlib {self.jaxlib}, Python {self.python}, {self.backend})"


def read_versions(golden_dir: Path) -> Provenance | None:
    """The versions a golden folder records, or None if it has no readable VERSIONS file."""
    path = golden_dir / VERSIONS_FILE
    if not path.is_file():
        return None
    fields = dict(
        line.split(": ", 1)
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines()
        if ": " in line and not line.startswith("#")
    )
    if not all(key in fields for key in _VERSION_KEYS):
        return None
    return Provenance(*(fields[key] for key in _VERSION_KEYS))


def write_versions(golden_dir: Path, prov: Provenance) -> bool:
    """Record the versions; True when the file changed."""
    path = golden_dir / VERSIONS_FILE
    text = prov.text()
    if path.is_file() and path.read_text(encoding="utf-8", errors="replace") == text:
        return False
    write_atomic(path, text)
    return True


def golden_path(golden_dir: Path, page: str, block_id: str) -> Path:
    """docs/tracers.md, block 'scalar-jaxpr' -> tests/golden/tracers/scalar-jaxpr.txt"""
    return golden_dir / PurePosixPath(page).with_suffix("") / f"{block_id}.txt"


def render(page: str, block_id: str, snippet: str, body: str) -> str:
    header = {
        "block": f"docs/{page}#{block_id}",
        "snippet": snippet,
        "written-by": "GOLDEN=update mkdocs build (never edit by hand)",
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


def read_golden(path: Path) -> tuple[str | None, str | None]:
    """A golden's text, or None if there is none; and what is wrong with it, in words.

    A damaged golden (not UTF-8, truncated, its header gone) is drift like any other: the
    report shows it with a readable diff, and the update mode rewrites it.
    """
    if not path.is_file():
        return None, None
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        text = data.decode("utf-8", errors="replace")
        return text, (
            f"the golden is not valid UTF-8 (byte {error.start}); shown with U+FFFD in the "
            "diff; GOLDEN=update rewrites it"
        )
    header, separator, _ = text.partition(_SEPARATOR)
    keys = [line.split(": ", 1)[0] for line in header.splitlines()]
    if not separator or keys != list(_HEADER_KEYS):
        return text, (
            "the golden is damaged or truncated (its header is not the one the update mode "
            "writes); GOLDEN=update rewrites it"
        )
    return text, None


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
        """Everything to say in words before the diff: the drift's class first."""
        drift = self.drift()
        return [*([drift.headline()] if drift else []), *self.reasons]

    def drift(self) -> jaxpr_diff.Drift | None:
        """Cosmetic or structural, read with the jaxprs as programs; None unless drifted."""
        if self.status != "drifted" or self.expected is None:
            return None
        return classify(parse(self.expected), parse(self.actual), self.reasons)

    @property
    def kind(self) -> str:
        """What a reviewer sees first: 'new', 'cosmetic', 'structural', 'text' or 'ok'."""
        drift = self.drift()
        return drift.kind if drift else self.status


def classify(old: Parsed, new: Parsed, reasons: list[str]) -> jaxpr_diff.Drift:
    """The class of one golden's drift. A changed header alone (a new JAX that prints the same
    text) is cosmetic; text outside the jaxprs, a count, a band or a claim is 'text' drift."""
    drift = jaxpr_diff.compare(old.output, new.output) or jaxpr_diff.Drift(jaxpr_diff.COSMETIC)
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
        return jaxpr_diff.Drift(
            jaxpr_diff.COSMETIC, ["the output is the same; only the header changed"]
        )
    if not changes:
        return drift
    if drift.kind == jaxpr_diff.STRUCTURAL:
        return jaxpr_diff.Drift(drift.kind, [*drift.changes, *changes], drift.diff)
    return jaxpr_diff.Drift(jaxpr_diff.TEXT, [*drift.changes, *changes])


def compare(
    golden_dir: Path,
    page: str,
    block_id: str,
    snippet: str,
    output: str,
    facts: list[Fact] | None = None,
    claims: list[Claim] | None = None,
) -> Comparison:
    """Text and counts compare exactly; timings and ratios by band; every claim must hold."""
    path = golden_path(golden_dir, page, block_id)
    facts, claims = list(facts or []), list(claims or [])
    body = output + measured.render(facts, claims)
    actual = render(page, block_id, snippet, body)
    expected, damage = read_golden(path)
    result = Comparison(page, block_id, snippet, path, expected, actual)
    result.broken = measured.broken_claims(facts, claims)
    if expected is None:
        result.reasons = list(result.broken)
        return result
    old, new = parse(expected), parse(actual)
    damaged = [damage] if damage else []
    result.reasons = damaged + measured.band_failures(old.facts, facts) + result.broken
    result.status = "ok" if old.exact() == new.exact() and not result.reasons else "drifted"
    return result


def remove_leftovers(golden_dir: Path) -> list[Path]:
    """Delete the temporary files of a write_atomic that was killed before its rename."""
    if not golden_dir.is_dir():
        return []
    leftovers = sorted(golden_dir.rglob(".*.txt.*.tmp"))
    for path in leftovers:
        path.unlink(missing_ok=True)
    return leftovers


def existing_goldens(golden_dir: Path) -> set[Path]:
    if not golden_dir.is_dir():
        return set()
    return {path for path in golden_dir.rglob("*.txt") if not path.name.startswith(".")}


def _rel(path: Path, root: Path) -> str:
    try:
        return str(path.relative_to(root))
    except ValueError:
        return str(path)


@dataclass(frozen=True)
class Failure:
    """A block that raised undeclared, timed out, flooded or could not run: no output to judge."""

    page: str
    block_id: str
    snippet: str
    message: str  # names page, block, snippet and line
    after: str | None = None  # an earlier block of the same page that failed first

    def line(self) -> str:
        where = _where(self.page, self.block_id, self.snippet) if self.block_id else self.page
        cause = (
            f"\n  (block '{self.after}' failed earlier in this page's session; this may follow "
            "from it)"
            if self.after
            else ""
        )
        if not self.block_id:  # a page's prose, or its worker: the message names the place
            return f"FAILED: {self.message}"
        return f"FAILED: {where}{cause}\n  " + self.message.replace("\n", "\n  ")


def _where(page: str, block_id: str, snippet: str) -> str:
    if page.endswith(".ipynb"):  # a lab: its cells are the blocks
        return f"lab docs/{page}, cell '{block_id}'"
    return f"page docs/{page}, block '{block_id}', snippet {snippet}"


@dataclass
class Report:
    """Everything the build learned about its goldens, and how to say it, in one place."""

    root: Path
    golden_dir: Path
    comparisons: list[Comparison]
    stale: list[Path]
    failures: list[Failure] = field(default_factory=list)
    recorded: Provenance | None = None  # the goldens' VERSIONS file
    running: Provenance | None = None  # this build's versions

    def versions_problem(self) -> str | None:
        """A folder of goldens must say which versions wrote them: a missing or damaged
        VERSIONS file fails the check like a damaged golden, and the update rewrites it."""
        if self.recorded is not None or not existing_goldens(self.golden_dir):
            return None
        path = _rel(self.golden_dir / VERSIONS_FILE, self.root)
        state = "damaged" if (self.golden_dir / VERSIONS_FILE).exists() else "missing"
        return f"VERSIONS: {path} is {state}; GOLDEN=update rewrites it"

    def blocks(self) -> int:
        """Blocks judged: compared with a golden, or failed (prose failures are not blocks)."""
        return len(self.comparisons) + sum(1 for f in self.failures if f.block_id)

    def count(self, status: str) -> int:
        return sum(c.status == status for c in self.comparisons)

    def kinds(self) -> list[str]:
        return [c.kind for c in self.comparisons if c.status == "drifted"]

    @property
    def failed(self) -> bool:
        if self.stale or self.failures or self.versions_problem():
            return True
        return any(c.status != "ok" for c in self.comparisons)

    def version_note(self) -> str | None:
        """Said once: which versions wrote the goldens, which run now, and what that changed."""
        if self.running is None or self.recorded == self.running:
            return None
        unchanged = self.count("ok")
        changed = self.blocks() - unchanged
        then = self.recorded.describe() if self.recorded else "unrecorded versions (no VERSIONS)"
        return (
            f"goldens written under {then}; running {self.running.describe()}: "
            f"{unchanged} blocks unchanged, {changed} changed"
        )

    def check_lines(self) -> list[str]:
        """The check's report, most serious first: versions, failures, structural drift, text
        drift, new and stale goldens, then cosmetic drift one line a block."""
        out: list[str] = []
        note = self.version_note()
        if note:
            out.append(note)
        problem = self.versions_problem()
        if problem:
            out.append(problem)
        out += [failure.line() for failure in self.failures]
        drifted = [c for c in self.comparisons if c.status == "drifted"]
        for kind in (jaxpr_diff.STRUCTURAL, jaxpr_diff.TEXT):
            out += [self._full(c) for c in drifted if c.kind == kind]
        for c in self.comparisons:
            if c.status == "new":
                reasons = "".join(f"\n  {note}" for note in c.notes())
                out.append(
                    f"NEW: {_where(c.page, c.block_id, c.snippet)}, golden "
                    f"{_rel(c.path, self.root)}{reasons}\n  no golden yet; run GOLDEN=update "
                    "to write it"
                )
        for path in self.stale:
            out.append(
                f"STALE: golden {_rel(path, self.root)} has no block in the book; "
                "GOLDEN=update deletes it"
            )
        for c in drifted:
            if c.kind == jaxpr_diff.COSMETIC:
                why = c.drift().headline().removeprefix("cosmetic: ")
                out.append(f"DRIFTED (cosmetic): {_where(c.page, c.block_id, c.snippet)}: {why}")
        kinds = self.kinds()
        if kinds:
            out.append(
                f"drift by class: {kinds.count('structural')} structural (a jaxpr's program "
                f"changed), {kinds.count('text')} text (other output, counts, bands or claims), "
                f"{kinds.count('cosmetic')} cosmetic (only re-lettering, wrapping, parameter "
                "order or the header)"
            )
        return out

    def _full(self, c: Comparison) -> str:
        head = f"DRIFTED ({c.kind}): {_where(c.page, c.block_id, c.snippet)}, golden "
        head += _rel(c.path, self.root)
        reasons = "".join(f"\n  {note}" for note in c.notes())
        drift = c.drift()
        aligned = f"\n{drift.diff}" if drift and drift.diff else ""
        return f"{head}{reasons}{aligned}\n{c.diff(self.root).rstrip()}"

    def summary(self) -> str:
        return (
            f"golden check: {self.blocks()} blocks checked, "
            f"{len(self.failures)} failed, {self.count('drifted')} drifted, "
            f"{self.count('new')} new, {len(self.stale)} stale"
        )

    def refused(self) -> list[Comparison]:
        """Blocks whose claims do not hold: the update never writes them (the prose would lie)."""
        return [c for c in self.comparisons if c.broken]

    def apply_update(self) -> list[str]:
        """Write every drifted and new golden whose claims hold, delete stale ones, record the
        versions; return what changed. Refused blocks and failures are left as they are."""
        changes = [
            f"removed {_rel(path, self.root)}, left by an interrupted update"
            for path in remove_leftovers(self.golden_dir)
        ]
        for c in self.comparisons:
            if c.status == "ok" or c.broken:
                continue
            write_atomic(c.path, c.actual)
            verb = "wrote new" if c.status == "new" else "rewrote"
            changes.append(f"{verb} {_rel(c.path, self.root)}")
        for path in self.stale:
            path.unlink()
            changes.append(f"deleted stale {_rel(path, self.root)}")
            _prune_empty(path.parent, self.golden_dir)
        if self.running and write_versions(self.golden_dir, self.running):
            changes.append(
                f"recorded {self.running.describe()} in "
                f"{_rel(self.golden_dir / VERSIONS_FILE, self.root)}"
            )
        return changes

    def update_summary(self) -> str:
        written = sum(c.status != "ok" and not c.broken for c in self.comparisons)
        return (
            f"golden update: {self.blocks()} blocks checked, "
            f"{written} written ({self.count('new')} new), {len(self.stale)} stale deleted, "
            f"{len(self.refused())} refused (claims), {len(self.failures)} failed"
        )


def _prune_empty(folder: Path, golden_dir: Path) -> None:
    while folder != golden_dir and folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()
        folder = folder.parent
