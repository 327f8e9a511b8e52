"""What changed between an older JAX and the pinned one, as a generated page of the book.

`./book jax-changes` runs every block of the book under a second JAX in its own virtual
environment (`.cache/jax-<version>/`) and records each output in the goldens' format under
`tests/other-jax/<version>/`, failures included. From that record and the goldens it writes
`docs/jax-changes.md`: per chapter, the blocks whose output differs, each with its class
(cosmetic or structural, read by `jaxpr_diff`) and its aligned diff, and the counts that changed
side by side. Timings and ratios print as placeholders, so their text compares exactly and
their noisy values are not compared at all. A block that failed under the other JAX is listed
with its error, never dropped. The strict build regenerates the page from the same files and
fails when the committed page differs, so the page always matches the goldens.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path

from bookexec import jaxpr_diff
from bookexec.blocks import Block, scan_page
from bookexec.errors import BookError
from bookexec.golden import golden_path, parse, write_atomic
from bookexec.measured import render as render_facts
from bookexec.normalize import normalize, path_rules
from bookexec.runner import Worker, WorkerFailed, is_fresh, judge

OTHER = "0.10.2"
PAGE = Path("docs") / "jax-changes.md"
RECORDS = Path("tests") / "other-jax"
_WRITER = "./book jax-changes (never edit by hand)"
_KEYS = ("block", "snippet", "written-by", "jax", "jaxlib", "python", "backend", "result")


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


def _record(block: Block, facts: dict, backend: str, result: str, body: str) -> str:
    header = {
        "block": f"docs/{block.page}#{block.id}",
        "snippet": block.snippet,
        "written-by": _WRITER,
        "jax": facts["jax"],
        "jaxlib": facts["jaxlib"],
        "python": facts["python"],
        "backend": backend,
        "result": result,
    }
    return "".join(f"{k}: {header[k]}\n" for k in _KEYS) + "---\n" + body


def _error_text(raw: dict, block: Block) -> str:
    if raw.get("flooded"):
        return "the output flooded past its limit\n"
    error = raw["error"]
    at = f" (line {error['line']} of {block.snippet})" if error.get("line") else ""
    return f"raised {error['qualified']}{at}:\n{error['shown']}"


def run_page(root: Path, python: str, blocks: list[Block], log_dir: str) -> list[tuple]:
    """Every block of one page, in one session; a failing block does not stop the next ones."""
    results: list[tuple] = []
    worker = Worker(root, log_dir, python=python)
    try:
        worker.ready()
        for block in blocks:
            try:
                if is_fresh(block):
                    fresh = Worker(root, log_dir, preload=[], python=python)
                    try:
                        fresh.ready()
                        raw = fresh.run(block)
                    finally:
                        fresh.kill()
                else:
                    raw = worker.run(block)
            except WorkerFailed as failure:
                results.append((block, None, f"{failure}\n"))
                worker.kill()  # the session is gone: later blocks run in a new one
                worker = Worker(root, log_dir, python=python)
                worker.ready()
                continue
            run = judge(block, raw)
            results.append((block, raw, run))
        backend = worker.finish()["backend"]
    finally:
        worker.kill()
    return [(block, raw, run, backend) for block, raw, run in results]


def run_book(root: Path, python: str, say=print) -> Path:
    """Run every block under `python`'s JAX; rewrite that version's record folder."""
    facts = _interpreter_facts(python)
    rules = _rules(root, facts["paths"])
    out_dir = root / RECORDS / facts["jax"]
    log_dir = tempfile.mkdtemp(prefix="bookexec-other-")
    written: set[Path] = set()
    for page in sorted((root / "docs").rglob("*.md")):
        src = page.relative_to(root / "docs").as_posix()
        blocks = scan_page(src, page.read_text(encoding="utf-8"), root)
        if not blocks:
            continue
        say(f"jax-changes: {src}: {len(blocks)} blocks under JAX {facts['jax']}")
        for block, raw, run, backend in run_page(root, python, blocks, log_dir):
            if raw is None:
                text = _record(block, facts, backend, "failed", normalize(run, rules))
            elif run.failure:
                body = normalize(run.output, rules) + _error_text(raw, block)
                text = _record(block, facts, backend, "failed", normalize(body, rules))
            else:
                body = normalize(run.output, rules) + render_facts(run.facts, run.claims)
                text = _record(block, facts, backend, "ok", body)
            path = golden_path(out_dir, block.page, block.id)
            write_atomic(path, text)
            written.add(path)
    for old in set(out_dir.rglob("*.txt")) - written:
        old.unlink()
    return out_dir


# -- comparing and writing the page -------------------------------------------------------------


@dataclass
class Change:
    block_id: str
    kind: str  # "cosmetic", "structural", "text", "fails", "not run"
    changes: list[str]
    aligned: str = ""
    text_diff: str = ""
    counts: list[tuple[str, str, str]] = ()  # (name, old value, new value)
    error: str = ""


def _chapters(root: Path) -> list[tuple[str, str]]:
    """(page, title) in the order of mkdocs.yml's nav; pages it does not list, by name."""
    config = root / "mkdocs.yml"
    listed = []
    if config.is_file():
        nav = re.compile(r"^\s*-\s*(?:\"([^\"]+)\"|([^:\"]+)):\s*(\S+\.md)\s*$", re.M)
        listed = [(m[3], m[1] or m[2].strip()) for m in nav.finditer(config.read_text())]
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


def compare_block(block_id: str, old_text: str | None, new_text: str) -> Change | None:
    """One block under the other JAX (old) and the pinned one (new); None when the same."""
    new = parse(new_text)
    if old_text is None:
        return Change(block_id, "not run", [f"no record under JAX {OTHER}; run ./book jax-changes"])
    old = parse(old_text)
    if old.header_fields().get("result") == "failed":
        return Change(block_id, "fails", [], error=old.output.strip())
    old_counts, new_counts = _exact(old), _exact(new)
    counts = [
        (name, old_counts.get(name, "–"), new_counts.get(name, "–"))
        for name in sorted(old_counts.keys() | new_counts.keys())
        if old_counts.get(name) != new_counts.get(name)
    ]
    drift = jaxpr_diff.compare(old.output, new.output)
    if drift is None and not counts:
        return None
    drift = drift or jaxpr_diff.Drift(jaxpr_diff.COSMETIC)
    kind, words, aligned = drift.kind, drift.changes, drift.diff
    if counts and kind != jaxpr_diff.STRUCTURAL:
        kind = jaxpr_diff.TEXT
        words = words or ["only recorded counts changed"]
    text_diff = "".join(
        difflib.unified_diff(
            old.output.splitlines(keepends=True),
            new.output.splitlines(keepends=True),
            fromfile=f"JAX {OTHER}",
            tofile=f"JAX {_pinned(new)}",
        )
    )
    return Change(block_id, kind, words, aligned, text_diff, counts)


def _pinned_version(golden_dir: Path) -> str:
    """The JAX the goldens were written under (the page is made from them)."""
    for path in sorted(golden_dir.rglob("*.txt")):
        return _pinned(parse(path.read_text(encoding="utf-8")))
    return version("jax")


def _pinned(parsed) -> str:
    return parsed.header_fields().get("jax", "?")


def _fence(language: str, text: str) -> str:
    ticks = "````" if "```" in text else "```"
    return f"{ticks}{language}\n{text.rstrip()}\n{ticks}\n"


def render_page(root: Path, other: str = OTHER) -> str:
    """The page's markdown, made only from the record folder and the goldens."""
    golden_dir = root / "tests" / "golden"
    record_dir = root / RECORDS / other
    pinned = _pinned_version(golden_dir)
    rows, sections = [], []
    for page, title in _chapters(root):
        chapter = Path(page).stem
        goldens = sorted((golden_dir / chapter).glob("*.txt"))
        if not goldens:
            continue
        found: list[Change] = []
        for path in goldens:
            record = record_dir / chapter / path.name
            old = record.read_text(encoding="utf-8") if record.is_file() else None
            change = compare_block(path.stem, old, path.read_text(encoding="utf-8"))
            if change:
                found.append(change)
        kinds = [c.kind for c in found]
        counts = [kinds.count(k) for k in ("cosmetic", "structural", "text")]
        failed = kinds.count("fails") + kinds.count("not run")
        cells = [len(goldens), len(goldens) - len(found), *counts, failed]
        rows.append(f"| [{title}]({page}) | " + " | ".join(map(str, cells)) + " |")
        if found:
            sections.append(_section(page, chapter, title, found, other, pinned))
    head = f"""# What changed from JAX {other} to {pinned}

<!-- Generated by ./book jax-changes from tests/other-jax/{other}/ and tests/golden/.
     Do not edit: the strict build regenerates this page and fails if it differs. -->

Every block of the book also ran under JAX {other}, in its own virtual environment, and
its output was recorded beside the goldens. This page compares the two, block by block. A
*cosmetic* change only re-letters variables, wraps lines or reorders parameters or independent
equations; a *structural* one adds, removes or renames a primitive, changes a parameter, a type
or where a value flows; a *text* change is one outside the jaxprs (messages, printed values,
counts). Timings and ratios are compared as their placeholders only, since
their values are noise; counts are exact and shown side by side. A block that fails under JAX
{other} is listed with its error.

| chapter | blocks | same | cosmetic | structural | text | failed |
| --- | ---: | ---: | ---: | ---: | ---: | ---: |
"""
    return head + "\n".join(rows) + "\n" + "".join(sections)


def _section(page: str, chapter: str, title: str, found, other: str, pinned: str) -> str:
    out = [f"\n## {title} {{#changes-{chapter}}}\n\nIn [{title}]({page}):\n"]
    for change in found:
        anchor = f"changes-{chapter}-{change.block_id}"
        out.append(f"\n### `{change.block_id}`: {change.kind} {{#{anchor}}}\n\n")
        if change.kind == "fails":
            out.append(f"Under JAX {other} this block fails:\n\n" + _fence("text", change.error))
            continue
        out += [f"- {word}\n" for word in change.changes]
        if change.counts:
            out.append(f"\n| value | JAX {other} | JAX {pinned} |\n| --- | ---: | ---: |\n")
            out += [f"| `{name}` | {a} | {b} |\n" for name, a, b in change.counts]
        if change.aligned:
            out.append("\nEquation by equation (`^` marks what changed):\n\n")
            out.append(_fence("text", change.aligned))
        if change.text_diff:
            out.append("\nThe output, line by line:\n\n" + _fence("diff", change.text_diff))
    return "".join(out)


def page_problem(root: Path) -> str | None:
    """Why the committed page does not match its record and goldens, or None."""
    page = root / PAGE
    if not page.is_file() and not (root / RECORDS / OTHER).is_dir():
        return None
    if not page.is_file():
        return f"{PAGE} is missing; run ./book jax-changes --page-only to write it"
    if not (root / RECORDS / OTHER).is_dir():
        return f"{PAGE} has no record to compare: tests/other-jax/{OTHER}/ is missing"
    if page.read_text(encoding="utf-8") != render_page(root):
        return (
            f"{PAGE} does not match the goldens and tests/other-jax/{OTHER}/ it is made from "
            "(a golden or the record changed); run ./book jax-changes --page-only to rewrite it"
        )
    return None


def write_page(root: Path) -> bool:
    """Regenerate the page; True when its text changed."""
    text = render_page(root)
    path = root / PAGE
    if path.is_file() and path.read_text(encoding="utf-8") == text:
        return False
    write_atomic(path, text)
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="./book jax-changes", description=__doc__.split("\n")[0])
    parser.add_argument("--python", help=f"the interpreter with JAX {OTHER} installed")
    parser.add_argument("--page-only", action="store_true", help="only regenerate the page")
    args = parser.parse_args(argv)
    root = Path.cwd()
    if not args.page_only:
        if not args.python:
            parser.error("--python is required unless --page-only")
        out_dir = run_book(root, args.python)
        print(f"jax-changes: recorded {len(list(out_dir.rglob('*.txt')))} blocks in {out_dir}")
    changed = write_page(root)
    print(f"jax-changes: {'rewrote' if changed else 'unchanged:'} {PAGE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
