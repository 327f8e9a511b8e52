"""Time a small markdown-exec book's check build against markdown-exec's own build, in one run.

The book (`small_book.py`): 5 pages of 4 small inline Python blocks, MkDocs' own theme. Two
builds of it, each a whole `mkdocs build --strict` process on its own copy of the book:
- markdown-exec: the book as written (`mkdocs.yml`), every block run in-process;
- executed-book: the same book with `executed-book` in place of `markdown-exec`
  (`mkdocs.executed-book.yml`), a check build: `GOLDEN=check`, `BOOK_CACHE=off`, so every
  block runs in a worker and is compared with its golden, none served from a cache.
Before the timed runs, each copy gets one untimed build: markdown-exec's warms the machine
up; executed-book's is `GOLDEN=update`, which records the goldens the check builds compare.
Then --rounds runs of each, interleaved (the first variant alternates) so both see the same
load, the same environment for both.

Target, from the same run's medians: executed-book <= 1.5 x markdown-exec, with every block
still isolated as the engine promises: each check build ran every block of the book (none
from the cache, none drifted, none failed), and every page's isolation probe (the loop
block) printed "none": no block saw a name from another page's blocks.

Should the engine refuse the book (an engine from before it ran inline fences), its update
build fails: the bench says why and times markdown-exec alone; `--require-engine` makes that
an error.

    python benchmarks/bench_small.py  # the book made afresh in a temporary folder, 3 rounds
    # BOOK made by small_book.py (made there if missing)
    python benchmarks/bench_small.py BOOK --rounds 5
    python benchmarks/bench_small.py --python .venv/bin/python

Machines here are noisy: read the ratio, not the seconds.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
MAKE_BOOK = HERE / "small_book.py"  # writes the book; lives beside this script
CONFIG = "mkdocs.yml"  # the book as written: markdown-exec
VARIANT = "mkdocs.executed-book.yml"  # the same config with executed-book in place
VARIANTS = {"markdown-exec": CONFIG, "executed-book": VARIANT}
LIMIT = 1.5  # executed-book <= LIMIT x markdown-exec (medians)
PROBE = "names from other pages:"  # printed by each page's loop block, then "none"
# The fences markdown-exec runs: python with exec true by markdown-exec's rule (anything but
# '', no, off, false and 0); enough for the book small_book.py writes.
EXECUTED = re.compile(
    r'^(`{3,}|~{3,})\s*python\b[^\n]*\bexec="(?!(?:no|off|false|0)?")', re.I | re.M
)


# Dropped from the caller's environment: the engine's own switches, and PYTHONDONTWRITEBYTECODE,
# under which a checkout's engine (an editable install) would compile its modules in every
# build and every worker, where markdown-exec, installed by pip, has its bytecode: the untimed
# first builds write the engine's, as pip would have.
DROPPED = ("BOOK_EXEC", "BOOK_CACHE", "GOLDEN", "PYTHONDONTWRITEBYTECODE")


def environ(**extra: str) -> dict[str, str]:
    """The environment of every build: check mode, no cache, whatever the caller's shell set."""
    env = {k: v for k, v in os.environ.items() if k not in DROPPED}
    return {**env, "NO_MKDOCS_2_WARNING": "1", "GOLDEN": "check", "BOOK_CACHE": "off", **extra}


def copy_book(book: Path, target: Path, config: str) -> None:
    """A copy of the book (all but its built site) whose `mkdocs.yml` is `config`."""
    shutil.copytree(book, target, ignore=shutil.ignore_patterns("site", "__pycache__"))
    shutil.copy2(book / config, target / CONFIG)


def count_blocks(root: Path) -> tuple[int, int]:
    """The book's pages and executed blocks, as markdown-exec would count them."""
    pages = sorted((root / "docs").rglob("*.md"))
    return len(pages), sum(len(EXECUTED.findall(page.read_text())) for page in pages)


def build(mkdocs: Path, root: Path, **env: str) -> tuple[float, subprocess.CompletedProcess[str]]:
    start = time.perf_counter()
    proc = subprocess.run(
        [str(mkdocs), "build", "--strict"],
        cwd=root,
        env=environ(**env),
        capture_output=True,
        text=True,
    )
    return time.perf_counter() - start, proc


def probe(root: Path) -> tuple[int, int]:
    """Pages whose isolation probe printed "none", of the pages that printed it at all (its
    output line, not its source, which the engine shows)."""
    said = [
        text
        for page in (root / "site").rglob("index.html")
        for line in page.read_text().splitlines()
        if (text := re.sub(r"<[^>]+>", "", line).strip()).startswith(PROBE)
    ]
    return sum(text == f"{PROBE} none" for text in said), len(said)


def checked(
    name: str, root: Path, proc: subprocess.CompletedProcess[str], blocks: int
) -> tuple[str, bool]:
    """What one timed build did, and whether it kept the promise (every block run, isolated)."""
    log = proc.stdout + proc.stderr
    if proc.returncode != 0:
        sys.exit(f"{name} build failed in {root}:\n{log}")
    clean, pages = probe(root)
    kept = clean == pages > 0
    what = f"probe: none on {clean}/{pages} pages"
    if name == "markdown-exec":
        return f"{blocks} blocks in-process; {what}", kept
    found = re.search(r"bookexec summary: (.*?); [\d.]+ s", log)
    if not found:
        return f"no bookexec summary line; {what}", False
    executed = re.search(r"(\d+) blocks executed", found[1])
    kept = (
        kept
        and executed is not None
        and int(executed[1]) == blocks
        and re.search(r"\b0 from cache\b", found[1]) is not None
        and re.search(r"\b0 drifted\b", found[1]) is not None
        and "failed" not in found[1]
    )
    return f"{found[1]}; {what}", kept


def first_error(log: str) -> str:
    lines = [line.strip() for line in log.splitlines() if line.strip()]
    return next((line for line in lines if line.startswith("ERROR")), lines[-1] if lines else "?")


def make_book(python: Path, folder: Path, ids: bool) -> None:
    proc = subprocess.run(
        [str(python), str(MAKE_BOOK), str(folder), *(["--ids"] if ids else [])],
        capture_output=True,
        text=True,
    )
    if proc.returncode != 0:
        sys.exit(f"{MAKE_BOOK.name} failed:\n{proc.stdout}{proc.stderr}")


def arguments() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "book", type=Path, nargs="?", help="the book's folder (default: made afresh, temporary)"
    )
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--python", type=Path, default=Path(sys.executable), help="the Python that makes the book"
    )
    parser.add_argument(
        "--mkdocs", type=Path, help="the mkdocs to build with (default: beside --python)"
    )
    parser.add_argument(
        "--ids", action="store_true", help='make the book with id="..." on every fence'
    )
    parser.add_argument(
        "--require-engine", action="store_true", help="fail when the engine refuses the book"
    )
    return parser


def main() -> None:
    args = arguments().parse_args()
    mkdocs = args.mkdocs or args.python.parent / "mkdocs"
    if not mkdocs.is_file():
        sys.exit(f"no mkdocs at {mkdocs}: give --mkdocs or a --python whose venv has it")

    with tempfile.TemporaryDirectory(prefix="book-bench-small-") as folder:
        book = (args.book or Path(folder) / "book").resolve()
        if not (book / CONFIG).is_file():
            make_book(args.python, book, args.ids)
        for config in VARIANTS.values():
            if not (book / config).is_file():
                sys.exit(f"the book at {book} has no {config}: make it with {MAKE_BOOK.name}")
        roots = {name: Path(folder) / name for name in VARIANTS}
        for name, config in VARIANTS.items():
            copy_book(book, roots[name], config)
        pages, blocks = count_blocks(roots["markdown-exec"])

        # Untimed: markdown-exec's warm-up, and the update that records executed-book's goldens.
        seconds, proc = build(mkdocs, roots["markdown-exec"])
        if proc.returncode != 0:
            sys.exit(f"markdown-exec build failed:\n{proc.stdout}{proc.stderr}")
        print(f"setup   markdown-exec {seconds:7.2f} s  warm-up build (untimed)")
        seconds, proc = build(mkdocs, roots["executed-book"], GOLDEN="update")
        if proc.returncode == 0:
            print(f"setup   executed-book {seconds:7.2f} s  GOLDEN=update build (untimed)")
            names = list(VARIANTS)
        else:
            refused = first_error(proc.stdout + proc.stderr)
            if args.require_engine:
                sys.exit(f"executed-book refused the book:\n{proc.stdout}{proc.stderr}")
            print(
                f"setup   executed-book {seconds:7.2f} s  NOT TIMED, the engine refused: {refused}"
            )
            names = ["markdown-exec"]

        times: dict[str, list[float]] = {name: [] for name in names}
        said: dict[str, str] = {}
        kept: dict[str, bool] = {name: True for name in names}
        for number in range(args.rounds):
            order = names if number % 2 == 0 else names[::-1]  # interleaved, first one alternating
            for name in order:
                seconds, proc = build(mkdocs, roots[name])
                said[name], ok = checked(name, roots[name], proc, blocks)
                kept[name] = kept[name] and ok
                times[name].append(seconds)
                flag = "" if ok else "  PROMISE BROKEN"
                print(f"round {number + 1} {name:<13} {seconds:7.2f} s  {said[name]}{flag}")

    med = {name: statistics.median(values) for name, values in times.items()}
    base = med["markdown-exec"]
    print(f"\nrounds: {args.rounds}; cores: {os.cpu_count()}; book: {pages} pages, {blocks} blocks")
    print(f"mkdocs: {mkdocs}; env: GOLDEN=check BOOK_CACHE=off")
    print(
        f"{'build':<13} {'min s':>7} {'median s':>9} {'max s':>7} {'/markdown-exec':>15}  last run"
    )
    for name in names:
        values = times[name]
        print(
            f"{name:<13} {min(values):7.2f} {med[name]:9.2f} {max(values):7.2f} "
            f"{med[name] / base:15.2f}  {said[name]}"
        )
    print("\ntargets (medians):")
    if "executed-book" not in med:
        print(f"  executed-book <= {LIMIT} x markdown-exec: not measured (the engine refused)")
        return
    ratio = med["executed-book"] / base
    verdict = "met" if ratio <= LIMIT and kept["executed-book"] else "MISSED"
    isolated = (
        "every block run and isolated"
        if kept["executed-book"]
        else "NOT every block run and isolated"
    )
    print(f"  executed-book <= {LIMIT} x markdown-exec, {isolated}: {ratio:.2f}  {verdict}")


if __name__ == "__main__":
    main()
