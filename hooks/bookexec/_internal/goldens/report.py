"""What a check or an update says, in one order, and what the update writes."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bookexec._internal.discover.blocks import printed_name
from bookexec._internal.errors import BookError
from bookexec._internal.escapes import terminal
from bookexec._internal.files import CachePaths, remove_confined, write_atomic
from bookexec._internal.goldens import measured
from bookexec._internal.goldens.compare import COSMETIC, PLAIN_WORDS, STRUCTURAL, TEXT, Comparison
from bookexec._internal.goldens.images import references
from bookexec._internal.goldens.store import (
    VERSIONS_FILE,
    Provenance,
    existing_goldens,
    parse,
    read_golden,
    relative,
    remove_leftovers,
    update_command,
    write_versions,
    written_by,
)


@dataclass(frozen=True)
class Failure:
    """A block that raised undeclared, timed out, flooded or could not run: no output to judge."""

    page: str
    block_id: str
    snippet: str
    message: str  # names page, block, snippet and line
    after: str | None = None  # an earlier block of the same page that failed first
    docs: str = "docs"  # the book's docs_dir, as messages name it (`Block.docs`)

    def line(self) -> str:
        """The failure as the report says it: where, then the message."""
        where = _where(self.docs, self.page, self.block_id, self.snippet)
        cause = (
            f"\n  (block '{self.after}' failed earlier in this page's session; this may follow "
            "from it)"
            if self.after
            else ""
        )
        if not self.block_id:  # a page's prose, or its worker: the message names the place
            return f"FAILED: {self.message}"
        return f"FAILED: {where}{cause}\n  " + self.message.replace("\n", "\n  ")


def _where(docs: str, page: str, block_id: str, snippet: str) -> str:
    if page.endswith(".ipynb"):  # a lab: its cells are the blocks
        return f"lab {docs}/{page}, cell '{block_id}'"
    printer, number = printed_name(block_id)
    if number:  # a fence a block printed: named by that block
        return f"page {docs}/{page}, block '{printer}', {number}"
    return f"page {docs}/{page}, block '{block_id}', snippet {snippet}"


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
    refused_writes: list[str] = field(default_factory=list)  # what apply_update would not do
    unwritten: list[Path] = field(default_factory=list)  # the goldens it could not write
    launcher: str = ""  # the book's command line (`./book`), whose commands the report names
    # Each drift class in the runtime's words (`Runtime.drift_words`); unless given, those of
    # the runtime whose `classify` classed the comparisons (`class_words`).
    words: Mapping[str, str] | None = None

    def class_words(self) -> Mapping[str, str]:
        """The drift classes' words: the report's own, or the `drift_words` of the runtime
        whose bound `classify` classed the first comparison; plain words for any other."""
        if self.words is not None:
            return self.words
        for comparison in self.comparisons:
            runtime = getattr(comparison.classify, "__self__", None)
            words: Mapping[str, str] | None = getattr(runtime, "drift_words", None)
            if words is not None:
                return words
        return PLAIN_WORDS

    def versions_problem(self) -> str | None:
        """A folder of goldens must say which versions wrote them: a missing or damaged
        VERSIONS file fails the check like a damaged golden, and the update rewrites it."""
        if self.recorded is not None or not existing_goldens(self.golden_dir):
            return None
        path = relative(self.golden_dir / VERSIONS_FILE, self.root)
        state = "damaged" if (self.golden_dir / VERSIONS_FILE).exists() else "missing"
        return f"VERSIONS: {path} is {state}; GOLDEN=update rewrites it"

    def blocks(self) -> int:
        """Blocks judged: compared with a golden, or failed (prose failures are not blocks)."""
        return len(self.comparisons) + sum(1 for f in self.failures if f.block_id)

    def count(self, status: str) -> int:
        """How many comparisons have this status."""
        return sum(c.status == status for c in self.comparisons)

    def kinds(self) -> list[str]:
        """The class of each drifted block."""
        return [c.kind for c in self.comparisons if c.status == "drifted"]

    @property
    def failed(self) -> bool:
        """Whether the check fails: any failure, drift, new or stale golden, or VERSIONS problem."""
        if self.stale or self.failures or self.versions_problem():
            return True
        return any(c.status != "ok" for c in self.comparisons)

    def claim_values(self) -> list[dict[str, Any]]:
        """Every claim this build judged, with its block and the values it compared."""
        found = []
        for c in self.comparisons:
            parsed = parse(c.actual)
            for value in measured.claim_values(parsed.facts, parsed.claims):
                found.append({"page": c.page, "block": c.block_id, "snippet": c.snippet, **value})
        return found

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
        drift, new and stale goldens, then cosmetic drift one line a block. Terminal-safe: a
        control or bidirectional character a block printed is shown as its escape."""
        return [terminal(line) for line in self._check_lines()]

    def _check_lines(self) -> list[str]:
        out: list[str] = []
        note = self.version_note()
        if note:
            out.append(note)
        problem = self.versions_problem()
        if problem:
            out.append(problem)
        out += [failure.line() for failure in self.failures]
        drifted = [c for c in self.comparisons if c.status == "drifted"]
        for kind in (STRUCTURAL, TEXT):
            out += [self._full(c) for c in drifted if c.kind == kind]
        for c in self.comparisons:
            if c.status == "new":
                reasons = "".join(f"\n  {note}" for note in c.notes())
                out.append(
                    f"NEW: {_where(c.docs, c.page, c.block_id, c.snippet)}, golden "
                    f"{relative(c.path, self.root)}{reasons}\n  no golden yet; run "
                    f"{update_command(self.launcher, f'{c.page}#{c.block_id}')} to write it"
                )
        for path in self.stale:
            out.append(
                f"STALE: golden {relative(path, self.root)} has no block in the book; "
                "GOLDEN=update deletes it"
            )
        for c in drifted:
            drift = c.drift()
            if drift is not None and drift.kind == COSMETIC:
                why = drift.headline().removeprefix("cosmetic: ")
                where = _where(c.docs, c.page, c.block_id, c.snippet)
                out.append(f"DRIFTED (cosmetic): {where}: {why}")
        kinds = self.kinds()
        if kinds:
            words = self.class_words()
            counts = [
                f"{kinds.count(kind)} {kind} ({words.get(kind, PLAIN_WORDS[kind])})"
                for kind in ("structural", "text", "cosmetic")
            ]
            out.append(f"drift by class: {', '.join(counts)}")
        return out

    def timing_notes(self, kept_only: bool = False) -> list[str]:
        """Timings and ratios of this build outside their golden's band: said, never judged
        (the golden's times may come from another machine; claims judge inside one run).
        With `kept_only`, only goldens the update leaves as they are."""
        return [
            terminal(f"NOTE (timing): {_where(c.docs, c.page, c.block_id, c.snippet)}: {moved}")
            for c in self.comparisons
            if not kept_only or c.status == "ok"
            for moved in c.moved
        ]

    def _full(self, c: Comparison) -> str:
        head = f"DRIFTED ({c.kind}): {_where(c.docs, c.page, c.block_id, c.snippet)}, golden "
        head += relative(c.path, self.root)
        reasons = "".join(f"\n  {note}" for note in c.notes())
        if any(image.changed and image.old and image.new for image in c.images):
            page = CachePaths(Path()).review_images
            reasons += f"\n  both images side by side: {page} (open it in a browser)"
        drift = c.drift()
        aligned = f"\n{drift.diff}" if drift and drift.diff else ""
        return f"{head}{reasons}{aligned}\n{c.diff(self.root).rstrip()}"

    def summary(self) -> str:
        """The check's last line: blocks checked, failed, drifted, new and stale."""
        return (
            f"golden check: {_blocks(self.blocks())} checked, "
            f"{len(self.failures)} failed, {self.count('drifted')} drifted, "
            f"{self.count('new')} new, {len(self.stale)} stale"
        )

    def refused(self) -> list[Comparison]:
        """Blocks whose claims do not hold: the update never writes them (the prose would lie)."""
        return [c for c in self.comparisons if c.broken]

    def apply_update(self) -> list[str]:
        """Write every drifted and new golden whose claims hold, delete stale ones, record the
        versions; return what changed. Refused blocks and failures are left as they are. A
        write that would leave the golden folder (a symlink on the way) is refused, and one the
        machine does not allow (a read-only or full disk, an immutable folder) could not be
        made: each is kept in `refused_writes`, naming its file and why; every other write is
        still made, and returned, so nothing written goes unsaid."""
        self.refused_writes = []
        self.unwritten = []
        changes = [
            f"removed {relative(path, self.root)}, left by an interrupted update"
            for path in self._guarded(self.golden_dir, remove_leftovers, self.golden_dir) or []
        ]
        for c in self.comparisons:
            if c.status == "ok" or c.broken:
                continue
            if self._guarded(c.path, write_atomic, c.path, c.actual, self.golden_dir) is False:
                self.unwritten.append(c.path)
                continue
            verb = "wrote new" if c.status == "new" else "rewrote"
            changes.append(f"{verb} {relative(c.path, self.root)}")
            changes += self._write_images(c)
        for path in self.stale:
            gone = [path.parent / name for name in references(read_golden(path)[0])]
            if self._guarded(path, remove_confined, path, self.golden_dir) is not False:
                changes.append(f"deleted stale {relative(path, self.root)}")
                for image in gone:
                    if self._guarded(image, remove_confined, image, self.golden_dir) is not False:
                        changes.append(f"deleted stale {relative(image, self.root)}")
                self._guarded(path.parent, _prune_empty, path.parent, self.golden_dir)
            else:
                self.unwritten.append(path)
        versions = self.golden_dir / VERSIONS_FILE
        running = self.running
        if running and self._guarded(
            versions, write_versions, self.golden_dir, running, written_by(self.launcher)
        ):
            changes.append(f"recorded {running.describe()} in {relative(versions, self.root)}")
        return changes

    def _write_images(self, c: Comparison) -> list[str]:
        """Write the block's images that changed or are new beside its golden, and delete
        those its output no longer has; an image that held stays as it was."""
        changes = []
        for image in c.images:
            path = c.path.parent / image.name
            if not image.changed:
                continue
            if image.new is None:
                done = self._guarded(path, remove_confined, path, self.golden_dir)
                verb = "deleted"
            else:
                done = self._guarded(path, write_atomic, path, image.new, self.golden_dir)
                verb = "wrote new" if image.old is None else "rewrote"
            if done is not False:
                changes.append(f"{verb} {relative(path, self.root)}")
        return changes

    def _guarded(self, path: Path, write: Callable[..., Any], *args: Any) -> Any:
        """One write's result, or False when it was refused or failed (kept, naming `path`
        and why, in `refused_writes`)."""
        try:
            return write(*args)
        except BookError as refused:
            self.refused_writes.append(f"REFUSED WRITE: {refused}")
        except OSError as error:
            why = error.strerror or str(error)
            self.refused_writes.append(
                f"COULD NOT WRITE: {relative(path, self.root)}: {why}; it is as it was. Make "
                "it writable (or free space), then run the update again"
            )
        return False

    def update_summary(self) -> str:
        """The update's last line: what it wrote, deleted and refused."""
        written = sum(
            c.status != "ok" and not c.broken and c.path not in self.unwritten
            for c in self.comparisons
        )
        new = sum(c.status == "new" and c.path not in self.unwritten for c in self.comparisons)
        failed = sum(c.path in self.unwritten for c in self.comparisons)
        unwritten = f", {failed} could not be written" if failed else ""
        deleted = sum(path not in self.unwritten for path in self.stale)
        return (
            f"golden update: {_blocks(self.blocks())} checked, "
            f"{written} written ({new} new){unwritten}, {deleted} stale deleted, "
            f"{len(self.refused())} refused (claims), {len(self.failures)} failed"
        )


def _blocks(count: int) -> str:
    return f"{count} block" if count == 1 else f"{count} blocks"


def _prune_empty(folder: Path, golden_dir: Path) -> None:
    while folder != golden_dir and folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()
        folder = folder.parent
