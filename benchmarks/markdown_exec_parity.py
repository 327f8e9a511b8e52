"""Two real markdown-exec books built by markdown-exec and by the engine, diffed page by page.

    python benchmarks/markdown_exec_parity.py BOOK REPO VENV [--work DIR] [--diffs N] [--check]

BOOK: `markdown-exec` (its own documentation at eef2661, its last commit with a `mkdocs.yml`)
or `py-ggsci` (at a2f254b, the last before it moved to zensical.toml); REPO: a git directory
holding that commit (a clone or a bare mirror); VENV: a virtual environment with executed-book,
markdown-exec, the book's plugins and the packages its blocks import (the top of
benchmarks/markdown_exec_docs.sh lists markdown-exec's; py-ggsci's need plotnine and ggsci's
own `src`, which the build puts on PYTHONPATH). Not part of the suite: slow, and it needs
those packages. docs/guide/markdown-exec-differences.md records what it printed.

Each book is laid out twice from the same commit. Both copies get the same trims (what needs
the network or a program with no package here, listed in `BOOKS`); then the engine's copy gets
its one changed line, `markdown-exec` to `executed-book` in the plugins, and nothing else (the
script asserts the two `mkdocs.yml` differ by exactly that line). markdown-exec's copy is built
with `mkdocs build`, the engine's with `GOLDEN=update mkdocs build` (its first build: it writes
the goldens), each with the `mkdocs` command an author types. Then every HTML page of the two
sites is compared after normalising only what differs between two runs of the same build
(`RANDOM`): the build date MkDocs writes, the ids and dates matplotlib and plotly draw afresh,
temporary folders and object addresses; and each copy's own folder, which a block may print
(the two copies lie side by side). A page that still differs is printed with its first
differing lines. With `--check`, both copies are built again, the engine's as a check of the
goldens its first build wrote (`GOLDEN=check`), and the two sites compared again.
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path


def _markdown_exec_trims(root: Path) -> None:
    # No network: the coverage plugin (and its page) and mkdocstrings' inventories go.
    config = root / "mkdocs.yml"
    text = config.read_text()
    text = text.replace("  - Coverage report: coverage.md\n", "").replace("- coverage\n", "")
    text = re.sub(r"        inventories:\n(?:        - https://\S+\n)+", "", text)
    assert "coverage" not in text and "inventories" not in text
    config.write_text(text)
    (root / "docs" / "coverage.md").unlink(missing_ok=True)
    # Two blocks fail under both plugins here: one runs `d2` (a Go program, no package), one
    # `gh api` (the network). Both are shown, not run, in both copies.
    _replace(
        root / "docs" / "gallery.md",
        '```python exec="true" html="true"\n--8<-- "gallery/d2.py"',
        '```python exec="false" html="true"\n--8<-- "gallery/d2.py"',
    )
    _replace(
        root / "docs" / "usage" / "pyodide.md",
        '```python exec="1"\nimport subprocess\nfrom textwrap',
        '```python exec="0"\nimport subprocess\nfrom textwrap',
    )


def _replace(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert text.count(old) == 1, f"{path}: {old!r} not found once"
    path.write_text(text.replace(old, new))


def _no_trims(root: Path) -> None:
    del root


@dataclass(frozen=True)
class Book:
    name: str
    commit: str
    before: str  # the plugin's line under markdown-exec
    after: str  # the same line under the engine
    trim: Callable[[Path], None]
    pythonpath: str = ""  # folders of the book its blocks import from


BOOKS = {
    "markdown-exec": Book(
        "markdown-exec",
        "eef2661",
        "- markdown-exec:\n",
        "- executed-book:\n",
        _markdown_exec_trims,
    ),
    "py-ggsci": Book(
        "py-ggsci", "a2f254b", "  - markdown-exec\n", "  - executed-book\n", _no_trims, "src"
    ),
}

# What is random per run of one build, whichever plugin runs the blocks.
RANDOM = (
    (re.compile(r"Build Date UTC : [^\n<]*"), "Build Date UTC : DATE"),
    # matplotlib's SVG: the date it writes, and its clip-path and glyph ids.
    (re.compile(r"<dc:date>[^<]*</dc:date>"), "<dc:date>DATE</dc:date>"),
    (
        re.compile(r'\b(id|clip-path|xlink:href|href)="(#?)(p|m|clip|DejaVu)[0-9a-f]{6,}'),
        r'\1="\2ID',
    ),
    (re.compile(r"url\(#p[0-9a-f]{6,}\)"), "url(#ID)"),
    # plotly's div id, a fresh UUID, and the same id in its script.
    (re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"), "UUID"),
    (re.compile(r"0x[0-9a-f]{6,16}\b"), "0xADDRESS"),
    (re.compile(r"/tmp/[A-Za-z0-9_.-]+"), "/tmp/TEMP"),
)


def normalise(text: str, root: Path) -> str:
    """`text` without what is random per run, and with the copy's own folder (a block may print
    where it runs) named BOOK: the two copies lie side by side."""
    text = text.replace(str(root), "BOOK")
    for pattern, replacement in RANDOM:
        text = pattern.sub(replacement, text)
    return text


def lay_out(book: Book, repo: Path, root: Path, engine: bool) -> None:
    root.mkdir(parents=True)
    archive = subprocess.run(
        ["git", f"--git-dir={repo}", "archive", book.commit], check=True, capture_output=True
    )
    subprocess.run(["tar", "-x", "-C", str(root)], input=archive.stdout, check=True)
    book.trim(root)
    if engine:
        config = root / "mkdocs.yml"
        text = config.read_text()
        assert text.count(book.before) == 1, f"{book.name}: {book.before!r} not found once"
        config.write_text(text.replace(book.before, book.after))
    # The git-revision plugin reads the pages' history; both copies get one commit.
    git = ["git", "-c", "user.name=bench", "-c", "user.email=bench@localhost"]
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    subprocess.run(["git", "add", "-A"], cwd=root, check=True)
    subprocess.run([*git, "commit", "-qm", "docs"], cwd=root, check=True)


def one_line_apart(theirs: Path, ours: Path) -> list[str]:
    """The lines of the two mkdocs.yml that differ: exactly the switched one."""
    diff = difflib.unified_diff(
        theirs.read_text().splitlines(), ours.read_text().splitlines(), n=0, lineterm=""
    )
    return [line for line in diff if line[:1] in "+-" and line[:3] not in ("+++", "---")]


def build(root: Path, venv: Path, book: Book, mode: str, log: Path) -> int:
    """`mkdocs build --strict` of one copy; `mode`: "" under markdown-exec, else the
    engine's GOLDEN."""
    env = dict(os.environ, PATH=f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}")
    env.pop("GOLDEN", None)
    env["DISABLE_MKDOCS_2_WARNING"] = "true"  # a notice some plugin prints, in both logs
    if mode:
        env["GOLDEN"] = mode
    if book.pythonpath:
        env["PYTHONPATH"] = str(root / book.pythonpath)
    # The command an author types: a block that prints a command line's usage names it.
    command = [str(venv / "bin" / "mkdocs"), "build", "--strict"]
    with log.open("w") as out:
        done = subprocess.run(command, cwd=root, env=env, stdout=out, stderr=subprocess.STDOUT)
    return done.returncode


def compare(theirs: Path, ours: Path, shown: int) -> int:
    """Print each page's verdict; return how many pages differ (a missing page counts)."""
    pages_theirs = {p.relative_to(theirs).as_posix() for p in theirs.rglob("*.html")}
    pages_ours = {p.relative_to(ours).as_posix() for p in ours.rglob("*.html")}
    differing = 0
    for page in sorted(pages_theirs | pages_ours):
        if page not in pages_ours or page not in pages_theirs:
            print(f"  {page}: only under {'markdown-exec' if page in pages_theirs else 'engine'}")
            differing += 1
            continue
        a = normalise((theirs / page).read_text(), theirs.parent).splitlines()
        b = normalise((ours / page).read_text(), ours.parent).splitlines()
        if a == b:
            print(f"  {page}: same")
            continue
        differing += 1
        diff = [
            line
            for line in difflib.unified_diff(a, b, "markdown-exec", "engine", n=0, lineterm="")
            if line[:1] in "+-" and line[:3] not in ("+++", "---")
        ]
        print(f"  {page}: {len(diff)} lines differ")
        for line in diff[:shown]:
            print(f"      {line[:200]}")
    files_theirs = {p.relative_to(theirs).as_posix() for p in theirs.rglob("*") if p.is_file()}
    files_ours = {p.relative_to(ours).as_posix() for p in ours.rglob("*") if p.is_file()}
    for name in sorted(files_ours - files_theirs):
        print(f"  + {name} (a file only the engine's site has)")
    for name in sorted(files_theirs - files_ours):
        print(f"  - {name} (a file only markdown-exec's site has)")
    return differing


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("book", choices=sorted(BOOKS))
    parser.add_argument("repo", type=Path)
    parser.add_argument("venv", type=Path)
    parser.add_argument("--work", type=Path, help="where both copies go (default: a new one)")
    parser.add_argument("--diffs", type=int, default=8, help="differing lines shown per page")
    parser.add_argument(
        "--check",
        action="store_true",
        help="then build both copies again, the engine's as a check of the goldens it wrote, "
        "and compare",
    )
    args = parser.parse_args(argv)
    book = BOOKS[args.book]
    work = args.work or Path(tempfile.mkdtemp(prefix=f"parity-{book.name}-"))
    theirs, ours = work / "markdown-exec", work / "engine"
    for root in (theirs, ours):
        shutil.rmtree(root, ignore_errors=True)
    lay_out(book, args.repo.resolve(), theirs, engine=False)
    lay_out(book, args.repo.resolve(), ours, engine=True)
    changed = one_line_apart(theirs / "mkdocs.yml", ours / "mkdocs.yml")
    assert changed == [f"-{book.before.rstrip()}", f"+{book.after.rstrip()}"], changed
    print(f"== {book.name} at {book.commit}: {work}; the one changed line: {changed}")
    status = 0
    for root, mode in ((theirs, ""), (ours, "update")):
        log = work / f"{root.name}.log"
        code = build(root, args.venv, book, mode, log)
        print(f"== build under {root.name}{mode and f' (GOLDEN={mode})'}: exit {code}, log {log}")
        status |= code
    if not ((theirs / "site").is_dir() and (ours / "site").is_dir()):
        return status or 1
    differing = _summary(theirs, ours, args.diffs)
    if args.check:
        # markdown-exec's copy is built again too: a block that lists the book's folder sees
        # the first build's site/ in both copies, and only the engine's goldens/ in one.
        code = build(theirs, args.venv, book, "", work / "markdown-exec-again.log")
        print(
            f"== build under markdown-exec again: exit {code}, log {work}/markdown-exec-again.log"
        )
        status |= code
        code = build(ours, args.venv, book, "check", work / "engine-check.log")
        print(f"== build under engine (GOLDEN=check): exit {code}, log {work}/engine-check.log")
        status |= code
        differing += _summary(theirs, ours, args.diffs)
    return status or int(differing > 0)


def _summary(theirs: Path, ours: Path, shown: int) -> int:
    print(
        "== page by page (normalised: each copy's folder; build date, matplotlib and plotly ids,"
        " addresses, temporary folders)"
    )
    differing = compare(theirs / "site", ours / "site", shown)
    print(f"== {differing} pages differ")
    return differing


if __name__ == "__main__":
    sys.exit(main())
