"""Review drifted goldens one by one, in the spirit of `cargo insta review`.

A check build that fails leaves its report behind (`.cache/bookexec/last-report.json`): for
each drifted, new or stale golden, its class, the aligned jaxpr diff, the text diff, and the
exact text the update mode would write. The review works from that file, so nothing runs
twice. Accepting a block writes that one golden with the golden module's atomic writer; a
rejected block keeps its golden (fix the snippet instead) and leaves the report; a skipped one
stays for the next review.

    ./book review                    walk the blocks: [a]ccept, [s]kip, [r]eject or [q]uit
    ./book review --accept-cosmetic  accept every cosmetic drift, list the rest
    ./book review --list             list what the report holds

The terminal's side (one key at a time, the listing) is `bookexec._internal.command.terminal`.
"""

from __future__ import annotations

import base64
import html
import json
import os
import re
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from bookexec._internal.errors import BookError
from bookexec._internal.escapes import terminal
from bookexec._internal.files import (
    CachePaths,
    confined,
    read_regular,
    remove_confined,
    write_atomic,
)
from bookexec._internal.goldens import images
from bookexec._internal.goldens.compare import Comparison
from bookexec._internal.goldens.report import Report
from bookexec._internal.goldens.store import read_golden, relative

REPORT: Path = CachePaths(Path()).report  # relative: each use joins it to a root
LAST_BUILD: Path = CachePaths(Path()).last_build
# Each changed image of the report, the golden's beside this build's (`side_by_side`).
IMAGES_PAGE: Path = CachePaths(Path()).review_images
_FORMAT = 2


@dataclass
class Entry:
    """One golden the last check build could not accept, with everything a reviewer needs."""

    page: str
    block_id: str
    snippet: str
    golden: str  # path relative to the book's root
    kind: str  # "cosmetic", "structural", "new" or "stale"
    notes: list[str] = field(default_factory=list)
    aligned: str = ""  # the aligned jaxpr diff, for structural drift
    diff: str = ""  # the unified diff of the golden file
    expected: str | None = None  # the golden on disk when the build ran
    actual: str | None = None  # what the update mode would write; None for a stale golden
    broken: list[str] = field(default_factory=list)  # claims that do not hold: never accepted
    docs: str = "docs"  # the book's docs_dir, as messages name it (`Block.docs`)
    # Each image that changed, is new or is gone (`goldens.images`): its file's name, what
    # changed in words, and this build's bytes in base64 ("" for one that is gone).
    images: list[dict[str, str]] = field(default_factory=list)

    @property
    def where(self) -> str:
        """The block as `<docs>/<page>#<id>`, or the golden's path for a stale one."""
        return f"{self.docs}/{self.page}#{self.block_id}" if self.page else self.golden


def entry_of(comparison: Comparison, root: Path) -> Entry:
    """The entry for one comparison that is not ok (drifted, or no golden yet): what the
    report holds for it, and what `accept` writes. The browser review (under `mkdocs serve`)
    makes its entries here too, so both review the same thing."""
    drift = comparison.drift()
    return Entry(
        page=comparison.page,
        block_id=comparison.block_id,
        snippet=comparison.snippet,
        golden=relative(comparison.path, root),
        kind=comparison.kind,
        notes=comparison.notes(),
        aligned=drift.diff if drift else "",
        diff=comparison.diff(root),
        expected=comparison.expected,
        actual=comparison.actual,
        broken=list(comparison.broken),
        docs=comparison.docs,
        images=[
            {
                "name": image.name,
                "words": image.words,
                "new": base64.b64encode(image.new).decode("ascii") if image.new else "",
            }
            for image in comparison.images
            if image.changed
        ],
    )


def save(report: Report) -> Path:
    """Write the failed check's report for `./book review` (atomically, like a golden), in the
    report's own order: failures, structural, text, new, stale, then cosmetic drift."""
    return _write(report, _entries(report))


def save_served(report: Report, judged: set[str]) -> Path:
    """A serve build's report: a rebuild judges only the pages it renders, so the last
    report's entries of every other page stay (its stale goldens and the book's own problems
    are this build's). With nothing left, the review says there is nothing to review."""
    fresh = _entries(report)
    judged = judged | {entry.page for entry in fresh}
    kept = [entry for entry in _last_entries(report.root) if entry.page not in judged | {""}]
    return _write(report, kept + fresh)


def _last_entries(root: Path) -> list[Entry]:
    """The entries of the report the last build left; none if there is none to trust."""
    try:
        return load(root)[1]
    except SystemExit:  # none, damaged or not the last build's: this build's alone
        return []


def _entries(report: Report) -> list[Entry]:
    entries = [
        Entry(f.page, f.block_id, f.snippet, "", "failed", [f.line()], docs=f.docs)
        for f in report.failures
    ]
    changed = [entry_of(c, report.root) for c in report.comparisons if c.status != "ok"]
    for path in report.stale:
        rel = relative(path, report.root)
        text, _ = read_golden(path, inside=report.golden_dir)
        changed.append(Entry("", "", "", rel, "stale", ["no block in the book"], expected=text))
    order = ["structural", "text", "new", "stale", "cosmetic"]
    return entries + sorted(changed, key=lambda e: order.index(e.kind) if e.kind in order else 0)


def _write(report: Report, entries: list[Entry]) -> Path:
    # The report names the build that wrote it and its golden folder; the review trusts it
    # only while both are this checkout's last build (`load`).
    build = uuid.uuid4().hex
    owner = {"build": build, "golden_root": _golden_root(report.root, report.golden_dir)}
    path = report.root / REPORT
    write_atomic(path, _dump(entries, report.summary(), report.version_note(), owner))
    write_atomic(report.root / LAST_BUILD, build + "\n")
    if any(entry.images for entry in entries):
        write_atomic(report.root / IMAGES_PAGE, side_by_side(report.root, entries))
    return path


def side_by_side(root: Path, entries: list[Entry]) -> str:
    """A page (standalone HTML) with each changed image of the report: the golden's beside
    this build's, under what changed in words."""
    rows = []
    for entry in entries:
        folder = (root / entry.golden).parent
        for image in entry.images:
            old = read_regular(folder / image["name"])
            new = base64.b64decode(image["new"]) if image["new"] else None
            rows.append(
                f"<h2>{html.escape(entry.where)}</h2>\n<p>{html.escape(image['words'])}</p>\n"
                + images.pair(image["name"], old, new)
            )
    return _PAGE.format(body="\n".join(rows))


_PAGE = """<!doctype html>
<meta charset="utf-8">
<title>Changed images</title>
<style>
body {{ font-family: sans-serif; margin: 1em; }}
figure {{ border: 1px solid #ccc; padding: .5em; }}
</style>
<h1>Changed images</h1>
{body}
"""


def clear(root: Path) -> None:
    """Every build that runs blocks starts by removing the last report, and a clean check
    (or a build that stops with an error) leaves none: nothing is left to review, and a report
    planted meanwhile (by a snippet, say) is gone."""
    for name in (REPORT, LAST_BUILD, IMAGES_PAGE):
        path = root / name
        if path.is_symlink() or path.is_file():
            path.unlink()


def _golden_root(root: Path, golden_dir: Path) -> str:
    # Relative to the checkout, so that a copy of it (goldens, cache and all) stays reviewable.
    return os.path.relpath(os.path.realpath(root / golden_dir), os.path.realpath(root))


def _dump(
    entries: list[Entry],
    summary: str,
    versions: str | None = None,
    owner: dict[str, Any] | None = None,
) -> str:
    data = {
        "format": _FORMAT,
        **(owner or {}),
        "written": time.strftime("%Y-%m-%d %H:%M:%S"),
        "summary": summary,
        "versions": versions,
        "entries": [asdict(entry) for entry in entries],
    }
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def load(root: Path, golden_dir: Path | None = None) -> tuple[dict[str, Any], list[Entry]]:
    """The last failed check's report and its entries; exits with a message if there is none,
    or if its golden folder is not `golden_dir` (the book's, when the caller knows it) or
    lies outside the book."""
    path = root / REPORT
    if not path.is_file():
        raise SystemExit(
            f"review: no report at {REPORT}; run the check build first (./book build): "
            "a build that fails on drift leaves one, as does every build of a serve"
        )
    try:
        data = json.loads((read_regular(path) or b"").decode("utf-8"))
        if not isinstance(data, dict) or data.get("format") != _FORMAT:
            raise SystemExit(f"review: {REPORT} is from another version of the tool; build again")
        entries = [Entry(**entry) for entry in data["entries"]]
    except (ValueError, TypeError, KeyError) as error:
        raise SystemExit(
            f"review: {REPORT} is damaged ({type(error).__name__}: {error}); run the check build "
            "again (./book build) to write a new one"
        ) from None
    last = (read_regular(root / LAST_BUILD) or b"").decode("utf-8", errors="replace").strip()
    golden_root = data.get("golden_root")
    wanted = _golden_root(root, golden_dir) if golden_dir is not None else golden_root
    inside = isinstance(golden_root, str) and _golden_root(root, Path(golden_root)) == golden_root
    inside = inside and golden_root == wanted and not str(golden_root).startswith((".", "/"))
    if not last or data.get("build") != last or not inside:
        raise SystemExit(
            f"review: {REPORT} does not belong to the last build of this checkout (its build id "
            "or its golden folder is not this checkout's); nothing was changed. Run the check "
            "build again (./book build) to write a new one"
        )
    return data, entries


def accept(root: Path, entry: Entry, golden_dir: Path | None = None, writer: str = "") -> str:
    """Write (or, for a stale golden, delete) this one golden; say what was done or why not.
    Only a file in `golden_dir` is touched: the book's golden folder, by default the one the
    last report names. `writer`: the golden's `written-by` words, when not the update's."""
    if entry.kind == "failed":
        return "not accepted: the block failed, so there is no output to accept; fix the snippet"
    golden_dir = golden_dir or reported_golden_dir(root)
    if golden_dir is None:
        return "not accepted: no report of the last build names the golden folder; build again"
    if writer and entry.actual is not None:
        written = f"written-by: {writer}"
        actual = re.sub(r"^written-by: .*$", written, entry.actual, count=1, flags=re.M)
        entry = replace(entry, actual=actual)
    try:  # whatever the report says, only a regular file inside the golden folder is touched
        path = confined(root / entry.golden, golden_dir)
    except BookError as refused:
        return f"not accepted: {refused}"
    refusal = _refusal(path, entry)
    if refusal:
        return f"not accepted: {refusal}"
    return _write_golden(path, entry, golden_dir)


def _refusal(path: Path, entry: Entry) -> str:
    """Why the entry must not be written over the golden at `path` ("" when it may)."""
    data = read_regular(path)
    on_disk = data.decode("utf-8", errors="replace") if data is not None else None
    if on_disk != entry.expected:
        return f"{entry.golden} changed since the build; run the build again"
    if entry.broken:
        return "a claim does not hold, so the prose would be false: " + "; ".join(entry.broken)
    return ""


def _write_golden(path: Path, entry: Entry, golden_dir: Path) -> str:
    """Write the entry's golden and images (or delete a stale one); say what was done."""
    try:
        if entry.actual is None:
            path.unlink()
            for name in images.references(entry.expected):  # its images go with it
                remove_confined(path.parent / name, golden_dir)
            return f"deleted stale {entry.golden}"
        write_atomic(path, entry.actual, inside=golden_dir)
        _accept_images(path.parent, entry, golden_dir)
    except BookError as refused:
        return f"not accepted: {refused}"
    except OSError as error:  # a read-only or full disk, an immutable folder: it is kept
        verb = "delete" if entry.actual is None else "write"
        return f"not accepted: could not {verb} {entry.golden}: {error.strerror or error}"
    return f"{'wrote new' if entry.expected is None else 'rewrote'} {entry.golden}"


def _accept_images(folder: Path, entry: Entry, golden_dir: Path) -> None:
    """Write the entry's new and changed images beside its golden; delete the gone ones."""
    for image in entry.images:
        path = folder / image["name"]
        if image["new"]:
            write_atomic(path, base64.b64decode(image["new"]), inside=golden_dir)
        else:
            remove_confined(path, golden_dir)


def reported_golden_dir(root: Path) -> Path | None:
    """The golden folder the last report names (`save`), or None without a readable one."""
    try:
        data = json.loads((read_regular(root / REPORT) or b"").decode("utf-8"))
        folder = data["golden_root"]
    except (ValueError, TypeError, KeyError):
        return None
    return root / folder if isinstance(folder, str) else None


def show(entry: Entry, number: int, total: int) -> str:
    """One entry as the review shows it: where, notes and diffs, terminal-safe (a control or
    bidirectional character a block printed is shown as its escape)."""
    head = f"[{number}/{total}] {entry.kind.upper()}  {entry.where}"
    if entry.snippet:
        head += f"  (snippet {entry.snippet}, golden {entry.golden})"
    parts = [head, *(f"  {note}" for note in entry.notes)]
    if entry.images:
        parts.append(f"  both images side by side: {IMAGES_PAGE} (open it in a browser)")
    if entry.aligned:
        parts.append(entry.aligned)
    if entry.diff:
        parts.append(entry.diff.rstrip())
    elif entry.kind == "new":
        parts.append("(no golden yet) it would be:\n" + (entry.actual or ""))
    return terminal("\n".join(parts))


def listed(entry: Entry) -> str:
    """One entry on one line of a list: its class, where, and its first note."""
    return terminal(
        f"{entry.kind}: {entry.where}" + (f"  ({entry.notes[0]})" if entry.notes else "")
    )


def save_remaining(root: Path, data: dict[str, Any], remaining: list[Entry]) -> None:
    """What a review left: the report kept with these entries, or removed with none."""
    if remaining:
        owner: dict[str, Any] = {key: data[key] for key in ("build", "golden_root") if key in data}
        write_atomic(root / REPORT, _dump(remaining, data.get("summary", ""), None, owner))
    else:
        clear(root)


def kinds(entries: list[Entry]) -> str:
    """How many entries of each kind, in words."""
    counts = Counter(entry.kind for entry in entries)
    return ", ".join(f"{n} {kind}" for kind, n in counts.items())


def accept_cosmetic(
    root: Path, data: dict[str, Any], entries: list[Entry], say: Callable[[str], object] = print
) -> int:
    """Accept every cosmetic drift, keep the rest in the report, and list it."""
    if data.get("versions"):
        say(data["versions"])
    remaining = []
    for entry in entries:
        if entry.kind == "cosmetic":
            outcome = accept(root, entry)
            say(terminal(f"{entry.where}: {outcome}"))
            if not outcome.startswith("not accepted"):
                continue
        remaining.append(entry)
    save_remaining(root, data, remaining)
    accepted = len(entries) - len(remaining)
    say(f"review: {accepted} cosmetic accepted; {len(remaining)} left for review:")
    for entry in remaining:
        say(f"  {listed(entry)}")
    return 0
