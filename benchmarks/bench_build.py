"""Time cold, warm and one-edit rebuilds of the book, and the build with execution off, in one run.

Each build is a whole `mkdocs build --strict` process on a copy of the book, so nothing in the
checkout changes. Machines here are noisy: read the ratios, not the seconds.

    ./book bench            # 3 rounds
    ./book bench --rounds 5
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
MKDOCS = Path(sys.executable).parent / "mkdocs"
COPY = ["mkdocs.yml", "docs", "snippets", "hooks", "tests/golden"]


def copy_book(target: Path) -> None:
    for name in COPY:
        source = REPO / name
        if source.is_dir():
            ignore = shutil.ignore_patterns("__pycache__")
            shutil.copytree(source, target / name, ignore=ignore)
        else:
            shutil.copy2(source, target / name)


def build(root: Path, **env: str) -> float:
    environ = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "GOLDEN": "check", **env}
    start = time.perf_counter()
    proc = subprocess.run(
        [str(MKDOCS), "build", "--strict"],
        cwd=root,
        env=environ,
        capture_output=True,
        text=True,
    )
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"build failed ({env}):\n{proc.stdout}{proc.stderr}")
    return seconds


def edit_one_snippet(root: Path, round_number: int) -> str:
    """Touch one snippet the way an author would: a changed line, the same output."""
    snippet = sorted((root / "snippets").rglob("*.py"))[0]
    with snippet.open("a") as handle:
        handle.write(f"# benchmark edit {round_number}\n")
    return str(snippet.relative_to(root))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    times: dict[str, list[float]] = {"cold": [], "warm": [], "one-edit": [], "exec-off": []}
    edited = ""
    for round_number in range(args.rounds):
        with tempfile.TemporaryDirectory(prefix="book-bench-") as folder:
            root = Path(folder)
            copy_book(root)
            cached = {"BOOK_CACHE": "on"}
            times["cold"].append(build(root, **cached))  # empty cache: every page runs
            times["warm"].append(build(root, **cached))  # nothing changed
            edited = edit_one_snippet(root, round_number)
            times["one-edit"].append(build(root, **cached))  # only the edited page runs
            times["exec-off"].append(build(root, BOOK_EXEC="off"))

    medians = {name: statistics.median(values) for name, values in times.items()}
    cold = medians["cold"]
    print(f"rounds: {args.rounds}; cores: {os.cpu_count()}; edited snippet: {edited}")
    print(f"{'build':<10} {'min s':>7} {'median s':>9} {'max s':>7} {'median/cold':>12}")
    for name, values in times.items():
        print(
            f"{name:<10} {min(values):7.2f} {medians[name]:9.2f} {max(values):7.2f} "
            f"{medians[name] / cold:12.2f}"
        )


if __name__ == "__main__":
    main()
