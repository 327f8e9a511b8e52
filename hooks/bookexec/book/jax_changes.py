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
import itertools
import json
import os
import subprocess
import tempfile
from dataclasses import dataclass, field
from importlib.metadata import version
from pathlib import Path

from bookexec.book import census
from bookexec.discover.blocks import Block, scan_page
from bookexec.errors import BookError
from bookexec.execute.protocol import BlockResult, BlockStatus
from bookexec.execute.runner import Limits, Worker, WorkerFailed, is_fresh, judge, masked
from bookexec.files import confined, read_regular, remove_confined, write_atomic
from bookexec.goldens.measured import render as render_facts
from bookexec.goldens.normalize import normalize, path_rules
from bookexec.goldens.store import Provenance, golden_path, parse, read_versions, write_versions
from bookexec.goldens.store import render as render_golden
from bookexec.jax import diff as jaxpr_diff
from bookexec.jax.runtime import JaxRuntime
from bookexec.privacy import Masker

RELEASES = ("0.10.2", "0.11.2")  # the older JAX releases the book is recorded under, oldest first
PAGE = Path("docs") / "jax-changes.md"
RECORDS = Path("tests") / "other-jax"
_WRITER = "./book jax-changes (never edit by hand)"


# -- running the book under the other JAX ------------------------------------------------------


def _interpreter_facts(python: str) -> dict:
    probe = (
        "import json, sys, sysconfig, importlib.metadata as m; "
        "print(json.dumps({'paths': sysconfig.get_paths(), 'jax': m.version('jax'), "
        "'jaxlib': m.version('jaxlib'), 'python': '%d.%d' % sys.version_info[:2]}))"
    )
    out = subprocess.run([python, "-c", probe], capture_output=True, text=True, timeout=120)
    if out.returncode:
        raise BookError(f"{python} cannot report its JAX: {out.stderr.strip()}")
    return json.loads(out.stdout)


def _rules(root: Path, paths: dict) -> list:
    real = lambda items: {str(p) for i in items for p in (i, os.path.realpath(i))}  # noqa: E731
    return path_rules(
        root=root.resolve(),
        site_packages=real({paths["purelib"], paths["platlib"]}),
        stdlib=real({paths["stdlib"], paths["platstdlib"]}),
        temp=real({tempfile.gettempdir(), "/tmp", "/var/tmp"}),
        homes=real({os.path.expanduser("~")}),
    )


def _record(block: Block, result: str, body: str) -> str:
    return render_golden(block.page, block.id, block.snippet, body, _WRITER, result=result)


def _error_text(raw: BlockResult, block: Block) -> str:
    if raw.status is BlockStatus.FLOODED or raw.error is None:
        return "the output flooded past its limit\n"
    error = raw.error
    at = f" (line {error.line} of {block.snippet})" if error.line else ""
    return f"raised {error.qualified}{at}:\n{error.shown}"


def run_page(root: Path, python: str, blocks: list[Block], log_dir: str) -> list[tuple]:
    """Every block of one page, in one session; a failing block does not stop the next ones."""
    results: list[tuple] = []
    runtime, limits, masker = JaxRuntime(), Limits.from_env(), Masker.from_environ()
    worker = Worker(root, log_dir, runtime, limits=limits, python=python)
    try:
        worker.ready()
        for block in blocks:
            try:
                if is_fresh(block):
                    fresh = Worker(root, log_dir, runtime, fresh=True, limits=limits, python=python)
                    try:
                        fresh.ready()
                        raw = fresh.run(block)
                    finally:
                        fresh.kill()
                else:
                    raw = worker.run(block)
            except WorkerFailed as failure:
                results.append((block, None, masker.mask(f"{failure}\n")))
                worker.kill()  # the session is gone: later blocks run in a new one
                worker = Worker(root, log_dir, runtime, limits=limits, python=python)
                worker.ready()
                continue
            run = masked(judge(block, raw, limits), masker)
            if raw.error is not None:  # the record shows the error as raised: masked too
                raw.error.shown = masker.mask(raw.error.shown)
            results.append((block, raw, run))
        backend = worker.finish().backend
    finally:
        worker.kill()
    return [(block, raw, run, backend) for block, raw, run in results]


def run_book(root: Path, python: str, say=print, pages: list[str] | None = None) -> Path:
    """Run every block under `python`'s JAX; rewrite that version's record folder.

    With `pages` (docs-relative, such as `tracers.md`), only those pages run and only their
    records are rewritten: an author who changed a chapter re-records it without rerunning
    the whole book under every release.
    """
    facts = _interpreter_facts(python)
    rules = _rules(root, facts["paths"])
    out_dir = root / RECORDS / facts["jax"]
    if pages:
        have = read_versions(out_dir)
        if have is None or have.jax != facts["jax"]:
            raise BookError(
                f"{out_dir} has no record yet: run ./book jax-changes on the whole book"
            )
    log_dir = tempfile.mkdtemp(prefix="bookexec-other-")
    written: set[Path] = set()
    backends: set[str] = set()
    chosen = sorted((root / "docs").rglob("*.md"))
    if pages:
        unknown = [page for page in pages if not (root / "docs" / page).is_file()]
        if unknown:
            raise BookError(f"no such page under docs/: {', '.join(unknown)}")
        chosen = [root / "docs" / page for page in sorted(pages)]
    for page in chosen:
        src = page.relative_to(root / "docs").as_posix()
        blocks = scan_page(src, page.read_text(encoding="utf-8"), root)
        if not blocks:
            continue
        say(f"jax-changes: {src}: {len(blocks)} blocks under JAX {facts['jax']}")
        for block, raw, run, backend in run_page(root, python, blocks, log_dir):
            if raw is None:
                text = _record(block, "failed", normalize(run, rules))
            elif run.failure:
                body = normalize(run.output, rules) + _error_text(raw, block)
                text = _record(block, "failed", normalize(body, rules))
            else:
                body = normalize(run.output, rules) + render_facts(run.facts, run.claims)
                text = _record(block, "ok", body)
            path = golden_path(out_dir, block.page, block.id)
            write_atomic(path, text, inside=root / RECORDS)  # never through a symlink
            written.add(path)
            backends.add(backend)
    kept = out_dir.rglob("*.txt")
    if pages:  # only the chosen pages' records can be stale; the others were not rerun
        kept = (p for page in pages for p in (out_dir / Path(page).with_suffix("")).glob("*.txt"))
    for old in sorted(set(kept) - written):
        remove_confined(old, root / RECORDS)
    if not pages:  # a partial run keeps the folder's versions, checked to be this JAX's
        prov = Provenance(
            facts["jax"], facts["jaxlib"], facts["python"], ",".join(sorted(backends))
        )
        confined(out_dir / "VERSIONS", root / RECORDS)
        write_versions(out_dir, prov)
    return out_dir


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


def _chapters(root: Path) -> list[tuple[str, str]]:
    """(page, title) in the order of mkdocs.yml's nav; pages it does not list, by name."""
    nav = census.nav_pages(census.read_nav(root / "mkdocs.yml"))
    listed = [(page, title or page) for page, title in nav if page.endswith(".md")]
    names = {page for page, _ in listed}
    golden_dir = root / "tests" / "golden"
    extra = [
        (f"{folder.name}.md", folder.name)
        for folder in sorted(golden_dir.iterdir() if golden_dir.is_dir() else [])
        # labs/ holds a folder per lab, not a chapter's goldens: labs are not compared
        if folder.is_dir() and f"{folder.name}.md" not in names and any(folder.glob("*.txt"))
    ]
    return listed + extra


def _exact(parsed) -> dict[str, str]:
    return {f.name: str(f.value) for f in parsed.facts if not f.banded}


def _failed(parsed) -> bool:
    return parsed.header_fields().get("result") == "failed"


def compare_block(
    block_id: str, old_text: str | None, new_text: str | None, old: str, new: str
) -> Change | None:
    """One block under release `old` and release `new`; None when its output is the same."""
    if old_text is None or new_text is None:
        missing = old if old_text is None else new
        return Change(
            block_id, "not run", [f"no record under JAX {missing}; run ./book jax-changes"]
        )
    before, after = parse(old_text), parse(new_text)
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
    drift = drift or jaxpr_diff.Drift(jaxpr_diff.COSMETIC)
    kind, words, aligned = drift.kind, drift.changes, drift.diff
    if counts and kind != jaxpr_diff.STRUCTURAL:
        kind = jaxpr_diff.TEXT
        words = words or ["only recorded counts changed"]
    text_diff = "".join(
        difflib.unified_diff(
            before.output.splitlines(keepends=True),
            after.output.splitlines(keepends=True),
            fromfile=f"JAX {old}",
            tofile=f"JAX {new}",
        )
    )
    return Change(block_id, kind, words, aligned, text_diff, counts)


def releases(root: Path) -> list[tuple[str, Path]]:
    """(JAX version, folder) of every recorded release, oldest first, then the goldens."""
    found = []
    for release in RELEASES:
        folder = root / RECORDS / release
        prov = read_versions(folder)
        found.append((prov.jax if prov else release, folder))
    golden_dir = root / "tests" / "golden"
    pinned = read_versions(golden_dir)
    found.append((pinned.jax if pinned else version("jax"), golden_dir))
    return found


def _fence(language: str, text: str) -> str:
    ticks = "````" if "```" in text else "```"
    return f"{ticks}{language}\n{text.rstrip()}\n{ticks}\n"


def _read(path: Path) -> str | None:
    return path.read_text(encoding="utf-8") if path.is_file() else None


@dataclass
class Seen:
    """One block's change between two releases, with where it lives, for the summary."""

    old: str
    new: str
    page: str
    chapter: str
    title: str
    change: Change
    is_error: bool  # the block is written to show an error (its fence has `raises`)

    def link(self) -> str:
        """The block's id as a link to its entry further down the page."""
        return f"[`{self.change.block_id}`](#changes-{self.chapter}-{self.change.block_id})"


def _error_blocks(root: Path, page: str) -> set[str]:
    """Ids of the page's blocks that are written to raise; none when the page is not there."""
    source = root / "docs" / page
    if not source.is_file():
        return set()
    blocks = scan_page(page, source.read_text(encoding="utf-8"), root)
    return {block.id for block in blocks if "raises" in block.options}


def _some(items: list[str], limit: int = 6) -> str:
    """`a, b and c`, or the first `limit` and how many more."""
    if len(items) > limit:
        rest = len(items) - limit
        items = [*items[:limit], f"{rest} more"]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _blocks(n: int) -> str:
    return f"{n} block" if n == 1 else f"{n} blocks"


def _summary(steps: list[tuple[str, str]], seen: list[Seen]) -> str:
    """What changed that matters, release by release, in sentences made from the changes."""
    out = ["\n## What changed that matters {#changes-summary}\n"]
    for old, new in steps:
        here = [s for s in seen if s.old == old and s.new == new]
        out.append(f"\n### From JAX {old} to JAX {new} {{#changes-from-{old}}}\n\n")
        if not here:
            out.append("Every block printed the same under both releases.\n")
            continue
        programs = [s for s in here if s.change.kind == jaxpr_diff.STRUCTURAL]
        errors = [s for s in here if s.is_error and s.change.kind in ("text", "structural")]
        counts = [s for s in here if s.change.counts]
        texts = [
            s for s in here if s.change.kind == "text" and not s.is_error and not s.change.counts
        ]
        cosmetic = [s for s in here if s.change.kind == jaxpr_diff.COSMETIC]
        broken = [s for s in here if s.change.kind in ("fails", "not run")]
        lines = []
        if programs:
            said = [f"{s.link()} in {s.title} ({s.change.changes[0]})" for s in programs]
            lines.append(
                f"**Jaxprs that changed shape.** {_blocks(len(programs))} recorded a different "
                f"program under JAX {new}: {_some(said)}."
            )
        if errors:
            said = [f"{s.link()} in {s.title}" for s in errors]
            lines.append(
                f"**Errors reworded.** The message of {_blocks(len(errors))} written to show an "
                f"error reads differently under JAX {new}: {_some(said)}."
            )
        if counts:
            said = [
                f"{s.link()} in {s.title} ("
                + ", ".join(f"`{name}` {a} → {b}" for name, a, b in s.change.counts[:4])
                + (f" and {len(s.change.counts) - 4} more" if len(s.change.counts) > 4 else "")
                + ")"
                for s in counts
            ]
            lines.append(
                f"**Counts that moved.** {_blocks(len(counts))} recorded other counts under "
                f"JAX {new}: {_some(said)}."
            )
        if texts:
            said = [f"{s.link()} in {s.title}" for s in texts]
            lines.append(
                f"**Other printed text.** {_blocks(len(texts))} printed other text around the "
                f"same programs: {_some(said)}."
            )
        if cosmetic:
            lines.append(
                f"**Printed differently, same programs.** {_blocks(len(cosmetic))} changed only "
                f"in how a jaxpr is lettered or wrapped: {_some([s.link() for s in cosmetic])}."
            )
        if broken:
            said = [f"{s.link()} ({s.change.changes[0]})" for s in broken]
            lines.append(
                f"**Not compared.** {_blocks(len(broken))} could not be compared: {_some(said)}."
            )
        out.append("".join(f"- {line}\n" for line in lines))
    return "".join(out)


def render_page(root: Path) -> str:
    """The page's markdown, made only from the record folders and the goldens."""
    chain = releases(root)
    golden_dir = chain[-1][1]
    steps = list(itertools.pairwise(chain))
    names = [v for v, _ in chain]
    rows, sections = [], []
    seen: list[Seen] = []
    for page, title in _chapters(root):
        chapter = Path(page).stem
        goldens = sorted((golden_dir / chapter).glob("*.txt"))
        if not goldens:
            continue
        raising = _error_blocks(root, page)
        found: dict[str, list[tuple[str, str, Change]]] = {}
        for path in goldens:
            for (old, old_dir), (new, new_dir) in steps:
                change = compare_block(
                    path.stem,
                    _read(old_dir / chapter / path.name),
                    _read(new_dir / chapter / path.name),
                    old,
                    new,
                )
                if change:
                    found.setdefault(path.stem, []).append((old, new, change))
                    is_error = path.stem in raising
                    seen.append(Seen(old, new, page, chapter, title, change, is_error))
        per_step = [
            sum(any(o == old for o, _, _ in found.get(p.stem, [])) for p in goldens)
            for (old, _), _ in steps
        ]
        failed = sum(
            any(c.kind in ("fails", "not run") for _, _, c in found.get(p.stem, []))
            for p in goldens
        )
        cells = [len(goldens), len(goldens) - len(found), *per_step, failed]
        rows.append(f"| [{title}]({page}) | " + " | ".join(map(str, cells)) + " |")
        if found:
            sections.append(_section(page, chapter, title, found))
    older = " and ".join(names[:-1])
    step_heads = " | ".join(f"{a} → {b}" for (a, _), (b, _) in steps)
    head = f"""# What changed across JAX releases

<!-- Generated by ./book jax-changes from tests/other-jax/ and tests/golden/.
     Do not edit: the strict build regenerates this page and fails if it differs. -->

The book's goldens were written under JAX {names[-1]}. Every block of the book also ran under
JAX {older}, each in its own virtual environment, and its output was recorded beside the
goldens. This page follows each block from release to release. A *cosmetic* change only
re-letters variables, wraps lines or reorders parameters or independent equations; a
*structural* one adds, removes or renames a primitive, changes a parameter, a type or where a
value flows; a *text* change is one outside the jaxprs (messages, printed values, counts).
Timings and ratios are compared as their placeholders only, since their values are noise;
counts are exact and shown side by side. A block that fails under a release is listed with
its error.

Each column after *same* counts the blocks whose output changed between two releases. The
sentences under the table say what changed that matters, step by step; the sections after them
show each block's diff.

| chapter | blocks | same | {step_heads} | failed |
| --- | ---: | ---: | {" | ".join("---:" for _ in steps)} | ---: |
"""
    summary = _summary([(a, b) for (a, _), (b, _) in steps], seen)
    return head + "\n".join(rows) + "\n" + summary + "".join(sections)


def _section(page: str, chapter: str, title: str, found) -> str:
    out = [f"\n## {title} {{#changes-{chapter}}}\n\nIn [{title}]({page}):\n"]
    for block_id, steps in found.items():
        out.append(f"\n### `{block_id}` {{#changes-{chapter}-{block_id}}}\n")
        for old, new, change in steps:
            out.append(f"\n**JAX {old} → {new}: {change.kind}**\n\n")
            if change.kind == "fails":
                out.append(f"- {change.changes[0]}:\n\n" + _fence("text", change.error))
                continue
            out += [f"- {word}\n" for word in change.changes]
            if change.counts:
                out.append(f"\n| value | JAX {old} | JAX {new} |\n| --- | ---: | ---: |\n")
                out += [f"| `{name}` | {a} | {b} |\n" for name, a, b in change.counts]
            if change.aligned:
                out.append("\nEquation by equation (`^` marks what changed):\n\n")
                out.append(_fence("text", change.aligned))
            if change.text_diff:
                out.append("\nThe output, line by line:\n\n" + _fence("diff", change.text_diff))
    return "".join(out)


def page_problem(root: Path) -> str | None:
    """Why the committed page does not match its records and goldens, or None."""
    page = root / PAGE
    have = [release for release in RELEASES if (root / RECORDS / release).is_dir()]
    if not page.is_file() and not have:
        return None
    if not page.is_file():
        return f"{PAGE} is missing; run ./book jax-changes --page-only to write it"
    missing = [release for release in RELEASES if release not in have]
    if missing:
        return (
            f"{PAGE} has no record to compare under JAX {', '.join(missing)}: "
            f"run ./book jax-changes to make tests/other-jax/{missing[0]}/"
        )
    if page.read_text(encoding="utf-8") != render_page(root):
        return (
            f"{PAGE} does not match the goldens and the records in tests/other-jax/ it is made "
            "from (a golden or a record changed); run ./book jax-changes --page-only to rewrite it"
        )
    return None


def write_page(root: Path) -> bool:
    """Regenerate the page; True when its text changed."""
    text = render_page(root)
    path = confined(root / PAGE, root / "docs")
    if read_regular(path) == text.encode("utf-8"):
        return False
    write_atomic(path, text, inside=root / "docs")
    return True
