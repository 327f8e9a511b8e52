"""What changed between an older JAX and the pinned one, as a generated page of the book.

`./book jax-changes` runs every block of the book under a second JAX in its own virtual
environment (`.cache/jax-<version>/`) and records each output in the goldens' format under
`tests/other-jax/<version>/`, failures included. From that record and the goldens it writes
`docs/jax-changes.md`: per chapter, the blocks whose output differs, each with its class
(cosmetic or structural, read by `jax.diff`) and its aligned diff, and the counts that changed
side by side. Timings and ratios print as placeholders, so their text compares exactly and
their noisy values are not compared at all. A block that failed under the other JAX is listed
with its error, never dropped. The strict build regenerates the page from the same files and
fails when the committed page differs, so the page always matches the goldens.
"""

from __future__ import annotations

import difflib
import functools
import hashlib
import itertools
import json
import re
import subprocess
import tomllib
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from importlib.metadata import version
from pathlib import Path, PurePosixPath
from typing import Any

from bookexec import BookContext
from bookexec._internal.discover.blocks import Block, scan_page
from bookexec._internal.errors import BookError
from bookexec._internal.execute.model import BlockRun
from bookexec._internal.execute.protocol import BlockResult, BlockStatus
from bookexec._internal.files import (
    confined,
    read_regular,
    remove_confined,
    write_atomic,
)
from bookexec._internal.goldens.compare import COSMETIC, STRUCTURAL, TEXT, Drift
from bookexec._internal.goldens.measured import mask
from bookexec._internal.goldens.normalize import (
    PathRule,
    machine_path_rules,
    normalize,
    snippet_names,
)
from bookexec._internal.goldens.store import (
    Parsed,
    Provenance,
    encode_output,
    golden_path,
    parse,
    read_versions,
    write_versions,
)
from bookexec._internal.goldens.store import body as golden_body
from bookexec._internal.goldens.store import render as render_golden
from bookexec._internal.jax import diff as jaxpr_diff
from bookexec._internal.jax.jax_runtime import JaxRuntime
from bookexec._internal.jax.parse import Jaxpr, Opaque, split_output
from bookexec._internal.pipeline.drive import RunOptions, run_pages
from jaxbook import census

RELEASES = ("0.10.2", "0.11.2")  # the older JAX releases the book is recorded under, oldest first
PAGE = "jax-changes.md"  # in the docs_dir
RECORDS = Path("tests") / "other-jax"
NOTES = RECORDS / "notes.toml"  # what each change means for a user's code: the page's lead
_WRITER = "./book jax-changes (never edit by hand)"


# -- running the book under the other JAX ------------------------------------------------------


def _check_pages(book: BookContext, pages: list[str], out_dir: Path, jax: str) -> None:
    """A partial run re-records pages of a folder the whole book recorded, each a page."""
    have = read_versions(out_dir)
    if have is None or have.version("jax") != jax:
        raise BookError(f"{out_dir} has no record yet: run ./book jax-changes on the whole book")
    known = {src for src, _ in book.pages()}
    unknown = [page for page in pages if PurePosixPath(page).as_posix() not in known]
    if unknown:
        raise BookError(f"no such page under {book.settings.docs}/: {', '.join(unknown)}")


def _remove_stale(root: Path, out_dir: Path, written: set[Path], pages: list[str] | None) -> None:
    """The records of blocks no longer in the book; of the chosen pages' alone after a partial
    run (the others were not rerun)."""
    kept: Iterable[Path] = out_dir.rglob("*.txt")
    if pages:
        kept = (p for page in pages for p in (out_dir / Path(page).with_suffix("")).glob("*.txt"))
    for old in sorted(set(kept) - written):
        remove_confined(old, root / RECORDS)


def _prefixed(say: Callable[[str], object], message: str) -> None:
    say(f"jax-changes: {message}")


def _interpreter_facts(python: str) -> dict[str, Any]:
    # The path rules' facts as the engine itself reads them (goldens.normalize), there.
    probe = (
        "import json, sys, importlib.metadata as m; "
        "from bookexec._internal.goldens.normalize import interpreter_facts; "
        "print(json.dumps({**interpreter_facts(), 'jax': m.version('jax'), "
        "'jaxlib': m.version('jaxlib'), 'python': '%d.%d' % sys.version_info[:2]}))"
    )
    out = subprocess.run([python, "-c", probe], capture_output=True, text=True, timeout=120)
    if out.returncode:
        raise BookError(f"{python} cannot report its JAX: {out.stderr.strip()}")
    facts: dict[str, Any] = json.loads(out.stdout)
    return facts


def session_hash(blocks: Sequence[Block], block: Block) -> str:
    """A hash of what a block's output can depend on in its page: the code of its page's
    blocks up to and including it (a page's blocks share one session)."""
    digest = hashlib.sha256()
    for earlier in blocks[: block.index + 1]:
        digest.update(earlier.code.encode("utf-8") + b"\0")
    return digest.hexdigest()[:16]


# A record's header field: written since normalisation keeps line ends and trailing spaces
# (issue 53). An older record was written with them trimmed, so it is compared with them
# trimmed on both sides (`_as_recorded`) until `./book jax-changes` records it again.
_LINE_ENDS = {"line-ends": "kept"}


def _record(block: Block, result: str, body: str, sources: str, docs: str = "docs") -> str:
    """A block's record, in a golden's format; its header names the page under `docs`, the
    book's docs_dir, as the goldens' do."""
    return render_golden(
        block.page,
        block.id,
        block.snippet,
        body,
        _WRITER,
        docs,
        result=result,
        sources=sources,
        **_LINE_ENDS,
    )


def _trimmed(text: str) -> str:
    """Line ends as the normalisation before issue 53 left them: trailing spaces and final
    blank lines gone, one final newline, lines cut where `str.splitlines` cuts them."""
    text = "\n".join(line.rstrip() for line in text.splitlines()).rstrip("\n")
    return text + "\n" if text else ""


def _as_recorded(
    old_text: str, new_text: str, snippets: Sequence[str] = ()
) -> tuple[Parsed, Parsed]:
    """Two records parsed, their outputs with line ends trimmed when the older one was written
    before they were kept (it cannot say what they were), and the page's snippets (`snippets`)
    named by their file alone on both sides, as the goldens name them today: a record made
    before that naming prints `snippets/<chapter>/x.py` where the golden prints `x.py`, which
    is the book's change, not JAX's."""
    before, after = (_named(parse(text), snippets) for text in (old_text, new_text))
    if before.header_fields().get("line-ends") == _LINE_ENDS["line-ends"]:
        return before, after
    return (
        replace(before, output=_trimmed(before.output)),
        replace(after, output=_trimmed(after.output)),
    )


def _named(parsed: Parsed, snippets: Sequence[str]) -> Parsed:
    return replace(parsed, output=snippet_names(parsed.output, snippets)) if snippets else parsed


def _error_text(raw: BlockResult, block: Block) -> str:
    if raw.status is BlockStatus.FLOODED or raw.error is None:
        return "the output flooded past its limit\n"
    error = raw.error
    at = f" (line {error.line} of {block.snippet})" if error.line else ""
    return f"raised {error.qualified}{at}:\n{error.shown}"


def _body(run: BlockRun, rules: list[PathRule], snippets: Sequence[str]) -> tuple[str, str]:
    """A block's record: its result and what it printed, with the error as it was raised; the
    page's snippets (`snippets`) named by their file alone, as the goldens name them."""
    if run.raw is None:  # its worker failed (`run.failure` says how); nothing it printed is left
        # Without the block's page line, which moves with the prose: a record follows the code.
        why = (run.failure or "").removeprefix(f"{run.block.where}: ")
        return "failed", encode_output(normalize(f"{why}\n", rules))
    printed = snippet_names(normalize(run.output, rules), snippets)
    if run.failure:
        return "failed", encode_output(
            mask(normalize(printed + _error_text(run.raw, run.block), rules))
        )
    return "ok", golden_body(printed, run.facts, run.claims)


def run_book(
    book: BookContext,
    python: str,
    say: Callable[[str], object] = print,
    pages: list[str] | None = None,
) -> Path:
    """Run every block under `python`'s JAX, through the build's own stages; rewrite that
    version's record folder. The book's context (`bookexec._internal.context.open_book`) holds its
    settings and the command line's environment (limits, hash seed, secrets to mask): its
    pages are read and its blocks limited as a build reads and limits them.

    The pages are the build's (`BookContext.pages`), planned as a build plans them
    (`pipeline.drive.run_pages`: a bad fence, or a session named on two pages, fails before
    any block runs), and run one at a time, in the plan's order, by the run stage over the
    book's executor, as every driver makes it (`pipeline.drive.executor_for`).

    With `pages` (docs-relative, such as `tracers.md`), only those pages run and only their
    records are rewritten: an author who changed a chapter re-records it without rerunning
    the whole book under every release. The whole book is still planned, as a build plans it.
    """
    root, settings, docs = book.root, book.settings, book.settings.docs
    facts = _interpreter_facts(python)
    rules = machine_path_rules(root, settings.environ, facts)
    out_dir: Path = root / RECORDS / facts["jax"]
    if pages:
        _check_pages(book, pages, out_dir, facts["jax"])
    wanted = {PurePosixPath(page).as_posix() for page in pages or ()}
    written: set[Path] = set()
    backends: set[str] = set()
    # One page at a time, in one session each, as a build runs it; no cache, no checkout
    # watch, each block under its own fence's limits.
    options = RunOptions(python=python, jobs=1)
    heard = functools.partial(_prefixed, say)
    under = f" under JAX {facts['jax']}"
    for done in run_pages(book, JaxRuntime(), options, wanted, heard, under):
        snippets = [run.block.snippet for run in done.run.blocks]
        for run in done.run.blocks:
            result, body = _body(run, rules, snippets)
            text = _record(run.block, result, body, session_hash(done.blocks, run.block), docs)
            path = golden_path(out_dir, run.block.page, run.block.id)
            write_atomic(path, text, inside=root / RECORDS)  # never through a symlink
            written.add(path)
        backends.add(done.run.backend)
        for note in done.notes:
            heard(str(note))
    _remove_stale(root, out_dir, written, pages)
    if not pages:  # a partial run keeps the folder's versions, checked to be this JAX's
        names = {name: facts[name] for name in ("jax", "jaxlib", "python")}
        prov = Provenance.of(names, ",".join(sorted(backends)))
        confined(out_dir / "VERSIONS", root / RECORDS)
        write_versions(out_dir, prov, writer=_WRITER)
    return out_dir


# The page's note for authors, a front matter key (which the prose audit reads): an HTML
# comment would reach the reader's page, in its source and in any text taken from it.
def generated_note(book: BookContext) -> str:
    """The note, naming the folders the page is made from."""
    return (
        f"generated: by ./book jax-changes from {RECORDS.as_posix()}/ and "
        f"{book.relative(book.golden_dir)}/; do not edit, the strict build regenerates this "
        "page and fails if it differs"
    )


# -- comparing and writing the page -------------------------------------------------------------


@dataclass
class Change:
    """How one block's output changed from one release to the next."""

    block_id: str
    kind: str  # "cosmetic", "structural", "text", "fails", "not run"
    changes: list[str]
    aligned: str = ""
    text_diff: str = ""
    counts: list[tuple[str, str, str]] = field(default_factory=list)  # (name, old, new)
    error: str = ""
    quoted: list[tuple[str, str]] = field(default_factory=list)  # (old words, new words)

    @property
    def links_only(self) -> bool:
        """Only links into JAX's documentation changed in the printed text."""
        return bool(self.quoted) and all(_links_only(a, b) for a, b in self.quoted)

    @property
    def rounding_only(self) -> bool:
        """Only the last digits of printed floats changed."""
        return bool(self.quoted) and all(_rounding_only(a, b) for a, b in self.quoted)


def _chapters(book: BookContext) -> list[tuple[str, str]]:
    """(page, title) in the order of mkdocs.yml's nav; pages it does not list, by name."""
    nav = census.nav_pages(book.nav)
    listed = [(page, title or page) for page, title in nav if page.endswith(".md")]
    names = {page for page, _ in listed}
    golden_dir = book.golden_dir
    extra = [
        (f"{folder.name}.md", folder.name)
        for folder in sorted(golden_dir.iterdir() if golden_dir.is_dir() else [])
        # labs/ holds a folder per lab, not a chapter's goldens: labs are not compared
        if folder.is_dir() and f"{folder.name}.md" not in names and any(folder.glob("*.txt"))
    ]
    return listed + extra


def _items(value: str, strip: bool = True) -> list[str] | None:
    """A JSON-valued fact's items (a record's `text` lines, else its leaves), None if not JSON:
    the raw JSON split on commas would show an upgrader fragments of the record."""
    start = min((i for i in (value.find("{"), value.find("[")) if i >= 0), default=-1)
    if start < 0:
        return None
    try:
        tree = json.loads(value[start:])
    except ValueError:
        return None
    texts: list[str] = []
    leaves: list[str] = []

    def walk(node: object, key: str = "") -> None:
        if isinstance(node, dict):
            for name, child in node.items():
                walk(child, str(name))
        elif isinstance(node, list):
            for child in node:
                walk(child, key)
        elif node is not None and not isinstance(node, bool):
            text = str(node).strip() if strip else str(node).rstrip()
            (texts if key == "text" else leaves).append(text)

    walk(tree)
    return [item for item in texts or leaves if item.strip()]


def _moved(old: str, new: str) -> str:
    """A count as `old → new`; a list (comma-separated or JSON) as what it gained and lost."""
    if "–" in (old, new):
        return f"{old} → {new}"
    before, after = _items(old), _items(new)
    if before is None or after is None:
        if ", " not in old and ", " not in new:
            return f"{old} → {new}"
        before, after = old.split(", "), new.split(", ")
        unmoved = f"reordered: {new}"
    else:
        unmoved = "reordered" if before != after else "same items, other fields changed"
    # Counted, not merely present: a jaxpr that loses one of three equal lines lost one.
    gained = list((Counter(after) - Counter(before)).elements())
    lost = list((Counter(before) - Counter(after)).elements())
    said = [f"gained {', '.join(gained)}"] if gained else []
    said += [f"lost {', '.join(lost)}"] if lost else []
    return "; ".join(said) or unmoved


_DOCS = re.compile(r"https?://docs\.jax\.dev/en/latest/")
_LINK = re.compile(r"https?://docs\.jax\.dev/\S*")
_FLOAT = re.compile(r"-?\d+\.\d*(?:e[-+]?\d+)?")


def _links_only(old: str, new: str) -> bool:
    return _LINK.sub("", old) == _LINK.sub("", new)


def _rounding_only(old: str, new: str) -> bool:
    """The same text, with floats that differ in their last digits only."""
    if _FLOAT.sub(" ", old).split() != _FLOAT.sub(" ", new).split():
        return False
    pairs = zip(_FLOAT.findall(old), _FLOAT.findall(new), strict=False)
    return all(abs(float(x) - float(y)) <= 1e-5 * max(abs(float(x)), 1e-30) for x, y in pairs)


def _narrow(old: str, new: str, width: int = 80, context: int = 2) -> tuple[str, str]:
    """Two changed lines, whole when short, else the words that differ and a little around them."""
    old, new = old.strip(), new.strip()
    if len(old) <= width and len(new) <= width:
        return old, new
    a, b = old.split(), new.split()
    ops = [o for o in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()]
    changed = [o for o in ops if o[0] != "equal"] or ops
    i1, j1 = max(changed[0][1] - context, 0), max(changed[0][3] - context, 0)
    i2, j2 = changed[-1][2] + context, changed[-1][4] + context
    return " ".join(a[i1:i2]), " ".join(b[j1:j2])


def _quoted(old: str, new: str, limit: int = 3) -> list[tuple[str, str]]:
    """The lines that differ between two texts, in order, each narrowed to what changed."""
    a, b = old.splitlines(), new.splitlines()
    runs: list[tuple[str, str]] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "replace" and i2 - i1 == j2 - j1:
            runs += [_narrow(x, y) for x, y in zip(a[i1:i2], b[j1:j2], strict=True)]
        elif op != "equal":
            runs.append((" / ".join(a[i1:i2]).strip(), " / ".join(b[j1:j2]).strip()))
    return list(dict.fromkeys(runs))[:limit]


def _quote(words: str, width: int = 100) -> str:
    words = _DOCS.sub("", words)
    words = words if len(words) <= width else words[: width - 1] + "…"
    ticks = "``" if "`" in words else "`"
    return f"{ticks}{words}{ticks}"


def _pair(old: str, new: str) -> str:
    if not old:
        return f"added {_quote(new)}"
    if not new:
        return f"dropped {_quote(old)}"
    return f"{_quote(old)} → {_quote(new)}"


def _said(change: Change) -> str:
    """What the printed text changed, quoted: `old` → `new`; ..."""
    more = len(change.quoted) - 3
    return "; ".join(_pair(a, b) for a, b in change.quoted[:3]) + (
        f"; and {more} more line{'s' if more > 1 else ''}" if more > 0 else ""
    )


def _plain(word: str) -> str:
    """A drift's words for a reader of releases: an equation whose primitive changed has had it
    replaced, and an equation removed or added is one equation (the old primitive may well live
    on elsewhere), not the primitive."""
    word = re.sub(r"primitive renamed: (\S+) -> (\S+)", r"an equation's \1 replaced by \2", word)
    # One equation went or came: the primitive itself may well be in the program still.
    return re.sub(r"primitive (removed|added): (\S+)", r"one \2 equation \1", word)


def primitives(text: str) -> set[str]:
    """Every primitive in the jaxprs a block printed, nested ones included; none if unreadable."""
    try:
        segments = split_output(text)
    except Exception:  # an unreadable jaxpr is reported by the comparison, not here
        return set()
    found: set[str] = set()
    for segment in segments:
        if segment.program is not None:
            _add_primitives(segment.program.main, found)
            for sub in segment.program.defs.values():
                _add_primitives(sub, found)
    return found


def _add_primitives(value: object, found: set[str]) -> None:
    """Add to `found` the primitive of every equation in `value` (a jaxpr, or a parameter
    that holds jaxprs), nested ones included."""
    if isinstance(value, Jaxpr):
        for eqn in value.eqns:
            found.add(eqn.primitive)
            for param in eqn.params.values():
                _add_primitives(param, found)
    elif isinstance(value, tuple):
        for item in value:
            _add_primitives(item, found)
    elif isinstance(value, Opaque):
        for part in value.parts:
            _add_primitives(part, found)


def _exact(parsed: Parsed) -> dict[str, str]:
    return {f.name: str(f.value) for f in parsed.facts if not f.banded}


def _failed(parsed: Parsed) -> bool:
    return parsed.header_fields().get("result") == "failed"


def compare_block(
    block_id: str,
    old_text: str | None,
    new_text: str | None,
    old: str,
    new: str,
    snippets: Sequence[str] = (),
) -> Change | None:
    """One block under release `old` and release `new`; None when its output is the same.
    `snippets`: the page's snippet files, named by their file alone on both sides."""
    if old_text is None or new_text is None:
        missing = old if old_text is None else new
        return Change(block_id, "not run", [f"not recorded under JAX {missing} yet"])
    before, after = _as_recorded(old_text, new_text, snippets)
    if _failed(before) or _failed(after):
        if _failed(before) and _failed(after) and before.output == after.output:
            return None
        which, error = (new, after) if _failed(after) else (old, before)
        return Change(block_id, "fails", [f"fails under JAX {which}"], error=error.output.strip())
    old_counts, new_counts = _exact(before), _exact(after)
    counts = [
        (name, old_counts.get(name, "–"), new_counts.get(name, "–"))
        for name in sorted(old_counts.keys() | new_counts.keys())
        if old_counts.get(name) != new_counts.get(name)
    ]
    drift = jaxpr_diff.compare(before.output, after.output)
    if drift is None and not counts:
        return None
    drift = drift or Drift(COSMETIC)
    kind, words, aligned = drift.kind, [_plain(word) for word in drift.changes], drift.diff
    if counts and kind != STRUCTURAL:
        kind = TEXT
        words = words or ["only values the chapter quotes changed"]
    text_diff = "".join(
        difflib.unified_diff(
            before.output.splitlines(keepends=True),
            after.output.splitlines(keepends=True),
            fromfile=f"JAX {old}",
            tofile=f"JAX {new}",
        )
    )
    quoted = [] if kind == STRUCTURAL else _quoted(before.output, after.output, 50)
    return Change(block_id, kind, words, aligned, text_diff, counts, quoted=quoted)


def releases(book: BookContext) -> list[tuple[str, Path]]:
    """(JAX version, folder) of every recorded release, oldest first, then the goldens."""
    found = []
    for release in RELEASES:
        folder = book.root / RECORDS / release
        prov = read_versions(folder)
        found.append((prov.version("jax") if prov else release, folder))
    golden_dir = book.golden_dir
    pinned = read_versions(golden_dir)
    found.append((pinned.version("jax") if pinned else version("jax"), golden_dir))
    return found


def _fence(language: str, text: str) -> str:
    ticks = "````" if "```" in text else "```"
    return f"{ticks}{language}\n{text.rstrip()}\n{ticks}\n"


def _read(path: Path) -> str | None:
    return path.read_text(encoding="utf-8") if path.is_file() else None


def _message(parsed: Parsed, declared: str) -> list[str]:
    """The lines of a raising block's record that are its error's message: from the last line
    that names the declared type to the end (all of them when no line names it)."""
    lines = parsed.output.splitlines()
    name = re.compile(rf"^(?:[\w.]+\.)?{re.escape(declared.rsplit('.', 1)[-1])}(?::|$)")
    starts = [i for i, line in enumerate(lines) if name.match(line)]
    return lines[starts[-1] :] if starts else lines


def _message_changed(
    old_text: str | None, new_text: str | None, declared: str, snippets: Sequence[str] = ()
) -> bool:
    """Whether a line of the error's message differs between two records of a raising block;
    a block whose printed values alone changed is summarised like one that does not raise."""
    if old_text is None or new_text is None:
        return True
    before, after = _as_recorded(old_text, new_text, snippets)
    return _message(before, declared) != _message(after, declared)


@dataclass
class Seen:
    """One block's change between two releases, with where it lives, for the summary."""

    old: str
    new: str
    page: str
    chapter: str
    title: str
    change: Change
    is_error: bool  # the block raises (its fence has `raises`) and its message changed

    def link(self) -> str:
        """The block's id as a link to its entry further down the page."""
        return f"[`{self.change.block_id}`](#changes-{self.chapter}-{self.change.block_id})"


def _page_blocks(
    book: BookContext, page: str, scanned: Mapping[str, Sequence[Block]]
) -> Sequence[Block]:
    """The page's executed blocks (`scanned`'s when a build has them); none when the page is
    not there."""
    if page in scanned:
        return scanned[page]
    source = book.docs_dir / page
    if not source.is_file():
        return []
    text = source.read_text(encoding="utf-8")
    return scan_page(page, text, book.root, book.settings.auto, book.settings.reading())


def _stale(text: str | None, sources: str | None) -> bool:
    """A record made from other code than the page has now (records without the field: unknown)."""
    if text is None or sources is None:
        return False
    recorded = parse(text).header_fields().get("sources")
    return recorded is not None and recorded != sources


def _some(items: list[str], limit: int | None = 6) -> str:
    """`a, b and c`, or the first `limit` and how many more."""
    if limit is not None and len(items) > limit:
        rest = len(items) - limit
        items = [*items[:limit], f"{rest} more"]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _news(words: list[str]) -> list[str]:
    """A changed program's changes as news: once each, without which of its jaxprs, and
    without what is not a change of shape (data flow follows from the rest; text is said
    elsewhere)."""
    words = [re.sub(r"^jaxpr \d+ of \d+: ", "", word) for word in words]
    times = {word: words.count(word) for word in words}
    replaced = {m[1] for word in times if (m := re.search(r"replaced by (\S+)$", word))}
    return [
        word if times[word] == 1 else f"{word}, in {times[word]} places"
        for word in times
        if "(data flow)" not in word
        and not word.startswith("the text around")
        # a new primitive's inputs are part of the replacement already said
        and not any(word.startswith(f"{name}: ") and " inputs -> " in word for name in replaced)
    ]


def _first(words: list[str], shown: int = 5) -> str:
    more = len(words) - shown
    return "; ".join(words[:shown]) + (f"; and {more} more" if more > 0 else "")


def _blocks(n: int) -> str:
    return f"{n} block" if n == 1 else f"{n} blocks"


def _primitives_moved(
    old: str,
    new: str,
    census: dict[tuple[str, str, str], dict[str, list[str]]],
    here: list[Seen],
) -> str | None:
    """The primitives that appear in the book's jaxprs under one release and not the other."""
    before, after = census.get((old, new, old), {}), census.get((old, new, new), {})
    came = sorted(set(after) - set(before))
    went = sorted(set(before) - set(after))
    if not came and not went:
        return None

    def named(name: str, side: int, besides: list[str]) -> str:
        """The other blocks whose printed text (outside jaxprs) names the primitive."""
        texts = [
            s.link()
            for s in here
            if s.link() not in besides
            and any(re.search(rf"\b{re.escape(name)}\b", pair[side]) for pair in s.change.quoted)
        ]
        return f"; its name is also printed by {_some(texts, None)}" if texts else ""

    said = [
        f"`{name}` appears (in {_some(after[name], None)}{named(name, 1, after[name])})"
        for name in came
    ]
    said += [
        f"`{name}` no longer appears (it was in {_some(before[name], None)}"
        f"{named(name, 0, before[name])})"
        for name in went
    ]
    return (
        f"**Primitives.** Across every jaxpr the book prints, from JAX {old} to JAX {new}: "
        f"{'; '.join(said)}."
    )


def _summary(
    steps: list[tuple[str, str]],
    seen: list[Seen],
    census: dict[tuple[str, str, str], dict[str, list[str]]],
) -> str:
    """What changed that matters, release by release, in sentences made from the changes."""
    out = ["\n## What changed that matters {#changes-summary}\n"]
    for old, new in steps:
        here = [s for s in seen if s.old == old and s.new == new]
        out.append(f"\n### From JAX {old} to JAX {new} {{#changes-from-{old}}}\n\n")
        if not here:
            out.append("Every block printed the same under both releases.\n")
            continue
        lines = _step_summary(old, new, here, census)
        out.append("".join(f"- {line}\n" for line in lines))
    return "".join(out)


def _step_summary(
    old: str,
    new: str,
    here: list[Seen],
    census: dict[tuple[str, str, str], dict[str, list[str]]],
) -> list[str]:
    """The sentences of one step from release `old` to `new`, one a kind of change."""
    programs = [s for s in here if s.change.kind == STRUCTURAL]
    errors = [s for s in here if s.is_error and s.change.kind in ("text", "structural")]
    texts = [s for s in here if s.change.kind == "text" and not s.is_error and not s.change.counts]
    lines = [_programs_said(programs, new)]
    moved_primitives = _primitives_moved(old, new, census, here)
    if moved_primitives:
        lines.append(moved_primitives)
    moved = [s for s in errors + texts if s.change.links_only]
    if moved:
        lines.append(
            f"**Links into JAX's documentation moved.** {_blocks(len(moved))} printed the "
            f"same words under JAX {new}, with a link to a page that JAX's documentation "
            f"moved (shown without `docs.jax.dev/en/latest/`), and nothing else changed: "
            f"{_link_moves(moved)}."
        )
    errors = [s for s in errors if not s.change.links_only]
    texts = [s for s in texts if not s.change.links_only]
    rounded = [s for s in texts if s.change.rounding_only]
    texts = [s for s in texts if not s.change.rounding_only]
    counts = [s for s in here if s.change.counts]
    # Each group of blocks, how one block's change is said, and the sentence that leads them.
    listed: list[tuple[list[Seen], Callable[[Change], str], str]] = [
        (
            rounded,
            _said,
            "**Rounding.** {n} printed floats that differ under JAX {new} in their last digits "
            "only (by at most a part in 100,000)",
        ),
        (
            errors,
            _said,
            "**Errors reworded.** The message of {n} written to show an error reads "
            "differently under JAX {new}",
        ),
        (
            counts,
            _counted,
            "**Counts and lists that moved.** {n} recorded other values under JAX {new}",
        ),
        (
            texts,
            _said,
            "**Other printed text.** {n} printed other text, outside any jaxpr the page compares",
        ),
    ]
    for group, describe, lead in listed:
        if group:
            said = [f"{s.link()} in {s.title} ({describe(s.change)})" for s in group]
            lines.append(f"{lead.format(n=_blocks(len(group)), new=new)}: {_some(said, None)}.")
    lines += _unchanged_programs_said(here)
    return lines


def _programs_said(programs: list[Seen], new: str) -> str:
    """The jaxprs whose program changed under release `new`, or that none did."""
    if not programs:
        return f"**Jaxprs.** No jaxpr changed shape under JAX {new}."
    said = [f"{s.link()} in {s.title} ({_first(_news(s.change.changes))})" for s in programs]
    return (
        f"**Jaxprs that changed shape.** {_blocks(len(programs))} recorded a different "
        f"program under JAX {new}: {_some(said, None)}."
    )


def _unchanged_programs_said(here: list[Seen]) -> list[str]:
    """The blocks only printed differently, and those not compared."""
    lines = []
    cosmetic = [s for s in here if s.change.kind == COSMETIC]
    if cosmetic:
        lines.append(
            f"**Printed differently, same programs.** {_blocks(len(cosmetic))} changed only "
            f"in how a jaxpr is lettered or wrapped: {_some([s.link() for s in cosmetic])}."
        )
    broken = [s for s in here if s.change.kind in ("fails", "not run")]
    if broken:
        lines.append(
            f"**Not compared.** {_blocks(len(broken))} could not be compared: "
            f"{_some(_not_compared(broken), None)}."
        )
    return lines


def _link_moves(moved: list[Seen]) -> str:
    """Each documentation page that moved, old → new, with the blocks (linked in their
    chapters: they have no entry of their own here) that print a link to it."""
    pages: dict[tuple[str, str], list[str]] = {}
    for s in moved:
        for a, b in s.change.quoted:
            for x, y in zip(_LINK.findall(a), _LINK.findall(b), strict=False):
                key = (_DOCS.sub("", x).split("#")[0], _DOCS.sub("", y).split("#")[0])
                link = f"[`{s.change.block_id}`]({s.page}#block-{s.change.block_id})"
                if link not in pages.setdefault(key, []):
                    pages[key].append(link)
    said = [f"`{a}` → `{b}` ({_some(links, None)})" for (a, b), links in pages.items()]
    return "; ".join(said)


def _counted(change: Change) -> str:
    """A block's moved values in a reader's words: the printed lines that changed, quoted, or
    the values themselves; never the names the book's snippets give them, which no page shows."""
    steps = [
        f"the program it steps through {_moved(a, b)}"
        for _, a, b in change.counts
        if _items(a) is not None and _items(b) is not None
    ]
    plain = [_moved(a, b) for _, a, b in change.counts if _items(a) is None or _items(b) is None]
    if change.quoted:
        said = [_said(change)]
    elif plain:
        said = [f"values the chapter quotes: {', '.join(plain)}"]
    else:
        said = []
    return "; ".join(said + steps)


def _not_compared(broken: list[Seen]) -> list[str]:
    """Blocks that failed, each linked; blocks not compared, counted by chapter and reason and
    linked to their chapter's section (they have no entry of their own)."""
    said = [f"{s.link()} ({s.change.changes[0]})" for s in broken if s.change.kind == "fails"]
    groups: dict[tuple[str, str, str], int] = {}
    for s in broken:
        if s.change.kind == "not run":
            key = (s.chapter, s.title, s.change.changes[0])
            groups[key] = groups.get(key, 0) + 1
    said += [
        f"{_blocks(n)} in [{title}](#changes-{chapter}) ({reason})"
        for (chapter, title, reason), n in groups.items()
    ]
    return said


@dataclass(frozen=True)
class ChangeNote:
    """What one change means for a user's code, in a maintainer's words, and the blocks that
    show it: each a `chapter/block-id` whose output changed between the two releases."""

    old: str
    new: str
    title: str
    text: str
    blocks: tuple[str, ...]


def read_notes(book: BookContext) -> list[ChangeNote]:
    """The notes in `tests/other-jax/notes.toml`, in their order; none without the file."""
    data = read_regular(book.root / NOTES)
    if data is None:
        return []
    try:
        table = tomllib.loads(data.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as bad:
        raise BookError(f"{NOTES}: not readable TOML: {bad}") from None
    notes = []
    for number, item in enumerate(table.get("note", []), 1):
        where = f"{NOTES}, note {number}"
        between, blocks = item.get("between"), item.get("blocks")
        title, text = item.get("title"), item.get("text")
        if not (
            isinstance(between, list)
            and len(between) == 2
            and all(isinstance(v, str) for v in between)
        ):
            raise BookError(f"{where}: `between` is two JAX versions, oldest first")
        if not (
            isinstance(blocks, list)
            and blocks
            and all(isinstance(b, str) and b.count("/") == 1 for b in blocks)
        ):
            raise BookError(f"{where}: `blocks` lists one or more 'chapter/block-id'")
        if not (isinstance(title, str) and title.strip() and "\n" not in title):
            raise BookError(f"{where}: `title` is one line")
        if not (isinstance(text, str) and text.strip()):
            raise BookError(f"{where}: `text` says what the change means for a user's code")
        notes.append(ChangeNote(between[0], between[1], title.strip(), text.strip(), tuple(blocks)))
    return notes


def _note_link(block: str, seen: list[Seen]) -> str:
    """A note's block linked to its entry; to its chapter's section when it has none (it was
    not compared under any pair of releases, and is named there on one line)."""
    chapter, block_id = block.split("/")
    own = any(
        f"{s.chapter}/{s.change.block_id}" == block and s.change.kind != "not run" for s in seen
    )
    anchor = f"changes-{chapter}-{block_id}" if own else f"changes-{chapter}"
    return f"[`{block_id}`](#{anchor})"


def _lead(notes: list[ChangeNote], steps: list[tuple[str, str]], seen: list[Seen]) -> str:
    """The notes as the page's first section; a note whose blocks do not show it is an error."""
    if not notes:
        return ""
    kinds = {(s.old, s.new, f"{s.chapter}/{s.change.block_id}"): s.change.kind for s in seen}
    out: list[str] = []
    for number, note in enumerate(notes, 1):
        if (note.old, note.new) not in steps:
            continue  # releases this page does not follow (goldens written under another JAX)
        for block in note.blocks:
            # A block not compared (its record is older than the page's code, or missing) cannot
            # be judged until ./book jax-changes records it again; one compared and found the
            # same shows the note is wrong.
            if (note.old, note.new, block) not in kinds:
                raise BookError(
                    f"{NOTES}, note {number} ({note.title}): {block} printed the same under both, "
                    f"so it does not show this change from JAX {note.old} to {note.new}"
                )
        links = ", ".join(_note_link(block, seen) for block in note.blocks)
        text = " ".join(note.text.split())
        out.append(f"- **{note.title}** (JAX {note.old} → {note.new}; {links}). {text}\n")
    if not out:
        return ""
    return "\n## What may break your code {#changes-breaking}\n\n" + "".join(out)


Census = dict[tuple[str, str, str], dict[str, list[str]]]


@dataclass
class Chapter:
    """One chapter's share of the page, made from its own goldens, records and blocks only."""

    row: str  # its line of the table that counts the book's blocks
    section: str  # its blocks' diffs ("" when none changed)
    seen: list[Seen]
    # (old, new, release) -> primitive -> links of the blocks whose jaxprs hold it there
    census: Census


def chapters(
    book: BookContext,
    scanned: Mapping[str, Sequence[Block]] | None = None,
    skip: set[str] | None = None,
) -> dict[str, Chapter]:
    """Each chapter's share of the page, by page, but those whose goldens' folder is one of
    `skip`'s. A one-page update makes the others' while its page runs (only its own goldens
    change), and its own after."""
    chain = releases(book)
    steps = list(itertools.pairwise(chain))
    skipped = {Path(page).stem for page in skip or ()}
    made = {}
    for page, title in _chapters(book):
        if Path(page).stem not in skipped:
            chapter = _chapter(book, page, title, steps, chain[-1][1], scanned or {})
            if chapter is not None:
                made[page] = chapter
    return made


def _chapter(
    book: BookContext,
    page: str,
    title: str,
    steps: list[tuple[tuple[str, Path], tuple[str, Path]]],
    golden_dir: Path,
    scanned: Mapping[str, Sequence[Block]],
) -> Chapter | None:
    chapter = Path(page).stem
    goldens = sorted((golden_dir / chapter).glob("*.txt"))
    if not goldens:
        return None
    seen: list[Seen] = []
    census: Census = {}
    blocks = _page_blocks(book, page, scanned)
    raising = {block.id: block.options["raises"] for block in blocks if "raises" in block.options}
    sources = {block.id: session_hash(blocks, block) for block in blocks}
    snippets = [block.snippet for block in blocks]
    found: dict[str, list[tuple[str, str, Change]]] = {}
    for path in goldens:
        for (old, old_dir), (new, new_dir) in steps:
            old_text, new_text = (
                _read(old_dir / chapter / path.name),
                _read(new_dir / chapter / path.name),
            )
            stale = [
                release
                for release, text in ((old, old_text), (new, new_text))
                if _stale(text, sources.get(path.stem))
            ]
            if stale:
                change: Change | None = Change(
                    path.stem,
                    "not run",
                    [
                        f"the run under JAX {stale[0]} was made before the chapter's code "
                        "last changed"
                    ],
                )
            else:
                change = compare_block(path.stem, old_text, new_text, old, new, snippets)
                link = f"[`{path.stem}`](#changes-{chapter}-{path.stem})"
                for release, text in ((old, old_text), (new, new_text)):
                    # The output alone: a record's facts are no jaxpr and make it unreadable.
                    for name in primitives(parse(text).output if text else ""):
                        census.setdefault((old, new, release), {}).setdefault(name, [])
                        census[old, new, release][name].append(link)
            if change:
                found.setdefault(path.stem, []).append((old, new, change))
                is_error = path.stem in raising and _message_changed(
                    old_text, new_text, raising[path.stem], snippets
                )
                seen.append(Seen(old, new, page, chapter, title, change, is_error))
    # A block not compared counts in the last column alone, not also as changed.
    per_step = [
        sum(
            any(
                o == old and c.kind not in ("fails", "not run") for o, _, c in found.get(p.stem, [])
            )
            for p in goldens
        )
        for (old, _), _ in steps
    ]
    failed = sum(
        any(c.kind in ("fails", "not run") for _, _, c in found.get(p.stem, [])) for p in goldens
    )
    cells = [len(goldens), len(goldens) - len(found), *per_step, failed]
    row = f"| [{title}]({page}) | " + " | ".join(map(str, cells)) + " |"
    section = _section(page, chapter, title, found) if found else ""
    return Chapter(row, section, seen, census)


def render_page(
    book: BookContext,
    scanned: Mapping[str, Sequence[Block]] | None = None,
    made: Mapping[str, Chapter] | None = None,
) -> str:
    """The page's markdown, made only from the record folders and the goldens (`scanned`:
    the pages' blocks as the build that calls it scanned them, not scanned again; `made`:
    chapters' shares already made from the same files, `chapters`)."""
    chain = releases(book)
    steps = list(itertools.pairwise(chain))
    names = [v for v, _ in chain]
    made = made or {}
    missing = {page for page, _ in _chapters(book)} - set(made)
    parts = chapters(book, scanned, skip=set(made)) if missing else {}
    rows, sections = [], []
    seen: list[Seen] = []
    census: Census = {}
    for page, _ in _chapters(book):
        part = made.get(page) or parts.get(page)
        if part is None:
            continue
        rows.append(part.row)
        sections.append(part.section)
        seen += part.seen
        for key, found in part.census.items():
            for name, links in found.items():
                census.setdefault(key, {}).setdefault(name, []).extend(links)
    older = " and ".join(names[:-1])
    step_heads = " | ".join(f"{a} → {b}" for (a, _), (b, _) in steps)
    pairs = [(a, b) for (a, _), (b, _) in steps]
    # A report about the book's outputs, not a chapter: a reader's search for a JAX term must
    # land on the chapter that teaches it, so Material's search leaves this page out.
    head = f"""---
{generated_note(book)}
search:
  exclude: true
---

# What changed across JAX releases

What changed from JAX {names[0]} to JAX {names[-1]} that breaks code you write, and how to
change the code, each point linked to the example that shows it. Below that, release by release,
a summary of what changed in this book's examples. The rest of the page is for checking a
detail: chapter by chapter, each example whose output changed, with its output under both
releases. It covers only what the examples print; every change JAX made, in behaviour, API or
deprecations, is in [JAX's changelog](https://docs.jax.dev/en/latest/changelog.html).
"""
    counted = f"""
## The book's blocks, counted {{#changes-counted}}

Every block of the chapters (not the labs) ran under JAX {older} as well as {names[-1]}, each
release in its own virtual environment. A block is compared only when its run under the older
release was made from the chapter's code as it is now. Each change above says whether the
program in a jaxpr changed (an equation added, removed or replaced, a parameter, a type or
where a value flows), only the printed text changed (messages, printed values, counts), or a
jaxpr was only printed differently (other variable letters, other line breaks, parameters or
independent equations in another order). Timings and ratios are not compared, since their
values depend on the machine; counts are exact and shown side by side (a dash: no such value
under that release). A block that fails under a release is listed with its error.

Each column between *same* and the last counts the blocks whose output changed between two
releases; the last counts the blocks that failed under a release or were not compared.

| chapter | blocks | same | {step_heads} | failed or not compared |
| --- | ---: | ---: | {" | ".join("---:" for _ in steps)} | ---: |
"""
    lead = _lead(read_notes(book), pairs, seen)
    summary = _summary(pairs, seen, census)
    return head + lead + summary + "".join(sections) + counted + "\n".join(rows) + "\n"


# Each kind of change as a reader of releases says it (the check's own class names are the
# book's maintainers' words).
_KIND_WORDS = {
    STRUCTURAL: "the program changed",
    TEXT: "the printed text changed",
    COSMETIC: "printed differently, the same program",
    "fails": "fails",
}


def _uncompared(found: dict[str, list[tuple[str, str, Change]]]) -> str:
    """The blocks compared under no pair of releases, one line for each reason."""
    why: dict[str, list[str]] = {}
    for block_id, steps in found.items():
        if all(change.kind == "not run" for _, _, change in steps):
            why.setdefault(steps[0][2].changes[0], []).append(f"`{block_id}`")
    return "".join(
        f"\nNot compared ({reason}): {_some(ids, None)}.\n" for reason, ids in why.items()
    )


def _error(text: str) -> str:
    """A failed record's error line in a reader's words: the exception as Python names it,
    without the line of the book's snippet file (the error's own lines follow it)."""
    text = re.sub(r"^raised builtins\.", "raised ", text, flags=re.M)
    return re.sub(r"^(raised \S+) \(line \d+ of \S+\):$", r"\1:", text, flags=re.M)


def _section(
    page: str, chapter: str, title: str, found: dict[str, list[tuple[str, str, Change]]]
) -> str:
    out = [f"\n## {title} {{#changes-{chapter}}}\n\nIn [{title}]({page}):\n"]
    out.append(_uncompared(found))
    for block_id, steps in found.items():
        if all(change.kind == "not run" for _, _, change in steps):
            continue  # listed on one line above
        if all(change.links_only for _, _, change in steps):
            continue  # only a moved documentation link: said once, in the summary
        out.append(f"\n### `{block_id}` {{#changes-{chapter}-{block_id}}}\n")
        for old, new, change in steps:
            if change.links_only:
                continue  # the summary says which pages moved, with the block
                out.append(f"\n**JAX {old} → {new}:** not compared ({change.changes[0]}).\n")
                continue
            out.append(f"\n**JAX {old} → {new}: {_KIND_WORDS.get(change.kind, change.kind)}**\n\n")
            if change.kind == "fails":
                out.append(f"- {change.changes[0]}:\n\n" + _fence("text", _error(change.error)))
                continue
            # "the output changed" alone says no more than the line above it
            out += [f"- {word}\n" for word in _in_words(change) if word != "the output changed"]
            out += _counts(old, new, change.counts, shown=bool(change.text_diff))
            if change.aligned:
                out.append(
                    "\nEquation by equation, each beside its counterpart under the other "
                    "release (`^` marks what changed). Each equation comes after those it "
                    "reads, following the outputs back, so the order may differ from the "
                    "printed jaxpr's:\n\n"
                )
                out.append(_fence("text", change.aligned))
            if change.text_diff:
                out.append("\nThe output, line by line:\n\n" + _fence("diff", change.text_diff))
    return "".join(out)


def _counts(
    old: str, new: str, counts: list[tuple[str, str, str]], shown: bool = False
) -> list[str]:
    """Changed values side by side, only when the output's diff (`shown`) does not already
    show the lines that print them; a structured one (a step-through view's record of a
    jaxpr, in JSON) as the diff of the lines it shows, not its JSON. Never by the names the
    book's snippets give them: no page shows those."""
    out: list[str] = []
    plain = [(a, b) for _, a, b in counts if _items(a) is None or _items(b) is None]
    if plain and not shown:
        out += [
            f"- a value the chapter quotes: {a} under JAX {old}, {b} under JAX {new}\n"
            for a, b in plain
        ]
    for _, a, b in counts:
        before, after = _items(a, strip=False), _items(b, strip=False)
        if before is None or after is None:
            continue
        lines = difflib.unified_diff(
            [f"{line}\n" for line in before],
            [f"{line}\n" for line in after],
            fromfile=f"JAX {old}",
            tofile=f"JAX {new}",
            n=1,
        )
        out.append("\nThe program its step-through view shows, line by line:\n\n")
        out.append(_fence("diff", "".join(lines)))
    return out


_TEXT_CHANGED = ("the text around the jaxprs changed", "the output changed")


def _in_words(change: Change) -> list[str]:
    """The change in words, a text change named by what the summary files it under."""
    kind = (
        "only the last digits of printed floats changed (rounding)"
        if change.rounding_only
        else "only links into JAX's documentation changed"
        if change.links_only
        else None
    )
    return [kind if kind and word in _TEXT_CHANGED else word for word in change.changes]


def page_path(book: BookContext) -> Path:
    """Where the page is: `PAGE` in the book's docs_dir."""
    return book.docs_dir / PAGE


def generated(book: BookContext) -> bool:
    """Whether the book has the page, or records to make it from: else it has no page to keep."""
    records = book.root / RECORDS
    return page_path(book).is_file() or any((records / r).is_dir() for r in RELEASES)


def page_problem(book: BookContext) -> str | None:
    """Why the committed page does not match its records and goldens, or None."""
    page = page_path(book)
    named = f"{book.settings.docs}/{PAGE}"
    have = [release for release in RELEASES if (book.root / RECORDS / release).is_dir()]
    if not generated(book):
        return None
    if not page.is_file():
        return f"{named} is missing; run ./book jax-changes --page-only to write it"
    missing = [release for release in RELEASES if release not in have]
    if missing:
        return (
            f"{named} has no record to compare under JAX {', '.join(missing)}: "
            f"run ./book jax-changes to make {RECORDS.as_posix()}/{missing[0]}/"
        )
    if page.read_text(encoding="utf-8") != render_page(book):
        return (
            f"{named} does not match the goldens and the records in {RECORDS.as_posix()}/ it is "
            "made from (a golden or a record changed); run ./book jax-changes --page-only to "
            "rewrite it"
        )
    return None


def write_page(
    book: BookContext,
    scanned: Mapping[str, Sequence[Block]] | None = None,
    made: Mapping[str, Chapter] | None = None,
) -> bool:
    """Regenerate the page (`made`: as `render_page`); True when its text changed."""
    text = render_page(book, scanned, made)
    path = confined(page_path(book), book.docs_dir)
    if read_regular(path) == text.encode("utf-8"):
        return False
    write_atomic(path, text, inside=book.docs_dir)
    return True
