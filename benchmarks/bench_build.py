"""Time the book's builds against two floors, in one run, and check the targets.

Builds (each a whole `mkdocs build --strict` process on a copy of the book, cache on):
- cold: an empty cache, every block runs (what CI runs, plus writing the cache);
- cold-1-job: the same with one page at a time, to show what running pages in parallel buys;
- warm: nothing changed, every block comes from the cache;
- prose-edit: one word of one chapter's prose changed;
- snippet-edit: one line added to one snippet; its block and the later blocks of its page
  run again (the earlier ones are replayed only if the session needs them).
Under `mkdocs serve` (in-process rebuilds, timed by the book's summary line):
- serve-prose and serve-snippet: the same two edits, with the cache;
- serve-render: the prose edit with execution off.
Floors:
- render: the same site with execution off (`BOOK_EXEC=off`);
- exec: every block run once, straight, in one process, with no MkDocs (`exec_floor.py`).

Machines here are noisy: read the ratios, not the seconds.

    ./book bench            # 3 rounds
    ./book bench --rounds 5 --snippet snippets/tracers/print_once.py
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import PAGE, SNIPPET, check_edits, edit_prose, edit_snippet

REPO = Path(__file__).resolve().parent.parent
MKDOCS = Path(sys.executable).parent / "mkdocs"
COPY = ["mkdocs.yml", "docs", "snippets", "hooks", "tests/golden", "tests/other-jax"]
BUILDS = ["cold", "cold-1-job", "warm", "prose-edit", "snippet-edit", "render-floor", "exec-floor"]
BUILDS += ["serve-prose", "serve-snippet", "serve-render"]
TARGETS = [  # (build, limit, against): build <= limit x against
    ("warm", 1.5, ("render-floor",)),
    ("prose-edit", 1.5, ("render-floor",)),
    ("cold", 1.25, ("exec-floor", "render-floor")),
    ("serve-prose", 1.5, ("serve-render",)),
]


def copy_book(target: Path) -> None:
    for name in COPY:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, target / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, target / name)


def build(root: Path, **env: str) -> tuple[float, str]:
    environ = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "GOLDEN": "check", **env}
    start = time.perf_counter()
    proc = subprocess.run(
        [str(MKDOCS), "build", "--strict"], cwd=root, env=environ, capture_output=True, text=True
    )
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"build failed ({env}):\n{proc.stdout}{proc.stderr}")
    found = re.search(r"bookexec summary: (.*);", proc.stdout + proc.stderr)
    return seconds, found[1] if found else "?"


def exec_floor(root: Path) -> tuple[float, str]:
    script = REPO / "benchmarks" / "exec_floor.py"
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, str(script), str(root)], cwd=root, capture_output=True, text=True
    )
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"execution floor failed:\n{proc.stdout}{proc.stderr}")
    result = json.loads(proc.stdout.splitlines()[-1])
    failed = f", {len(result['failures'])} failed outside the book's isolation"
    return seconds, f"{result['blocks']} blocks in one process" + (
        failed if result["failures"] else ""
    )


def serve_rebuilds(root: Path, page: str, snippet: str, **env: str) -> dict[str, float]:
    """Seconds of `mkdocs serve`'s rebuild after a prose edit and after a snippet edit, as the
    book's summary line reports them (MkDocs does not always log its own build time)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    log_path = root / "serve.log"
    environ = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "GOLDEN": "check", **env}
    with open(log_path, "w") as log:
        proc = subprocess.Popen(
            [str(MKDOCS), "serve", "-a", f"127.0.0.1:{port}"],
            cwd=root,
            env=environ,
            stdout=log,
            stderr=subprocess.STDOUT,
        )

    def built(count: int) -> float:
        deadline = time.monotonic() + 600
        while (
            len(found := re.findall(r"bookexec summary: .*; ([\d.]+) s\n", log_path.read_text()))
            < count
        ):
            if proc.poll() is not None or time.monotonic() > deadline:
                sys.exit(f"mkdocs serve failed:\n{log_path.read_text()}")
            time.sleep(0.1)
        return float(found[count - 1])

    try:
        built(1)
        time.sleep(1.5)  # let the watcher settle
        edit_prose(root, page)
        prose = built(2)
        edit_snippet(root, snippet, 99)
        return {"prose": prose, "snippet": built(3)}
    finally:
        proc.terminate()
        proc.wait(timeout=60)


def one_round(root: Path, args: argparse.Namespace, number: int) -> dict[str, tuple[float, str]]:
    cached = {"BOOK_CACHE": "on"}
    done = {"cold": build(root, **cached), "warm": build(root, **cached)}
    where = edit_prose(root, args.page)
    done["prose-edit"] = build(root, **cached)
    edit_snippet(root, args.snippet, number)
    done["snippet-edit"] = build(root, **cached)
    done["render-floor"] = build(root, BOOK_EXEC="off")
    serial = build(root, BOOK_CACHE="off", BOOK_JOBS="1")
    done["cold-1-job"] = (serial[0], f"{serial[1]} (BOOK_JOBS=1, cache off)")
    done["exec-floor"] = exec_floor(root)
    served = serve_rebuilds(root, args.page, args.snippet)
    floor = serve_rebuilds(root, args.page, args.snippet, BOOK_EXEC="off")
    done["serve-prose"] = (served["prose"], "in-process rebuild after a prose edit")
    done["serve-snippet"] = (served["snippet"], "in-process rebuild after a snippet edit")
    done["serve-render"] = (floor["prose"], "the same prose edit with BOOK_EXEC=off")
    done["prose-edit"] = (done["prose-edit"][0], f"{done['prose-edit'][1]} ({where})")
    return done


def arguments() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--page", default=PAGE, help="the chapter whose prose is edited")
    parser.add_argument(
        "--snippet",
        default=SNIPPET,
        help="the snippet edited (default: a block in the middle of its page)",
    )
    return parser


def main() -> None:
    args = arguments().parse_args()
    check_edits(REPO, args.page, args.snippet)

    times: dict[str, list[float]] = {name: [] for name in BUILDS}
    said: dict[str, str] = {}
    for number in range(args.rounds):
        with tempfile.TemporaryDirectory(prefix="book-bench-") as folder:
            copy_book(Path(folder))
            for name, (seconds, what) in one_round(Path(folder), args, number).items():
                times[name].append(seconds)
                said[name] = what
                print(f"round {number + 1} {name:<13} {seconds:7.2f} s  {what}")

    med = {name: statistics.median(values) for name, values in times.items()}
    render, execution = med["render-floor"], med["exec-floor"]
    print(f"\nrounds: {args.rounds}; cores: {os.cpu_count()}; snippet edit: {args.snippet}")
    print(
        f"{'build':<13} {'min s':>7} {'median s':>9} {'max s':>7} "
        f"{'/render':>8} {'/exec':>7} {'/(exec+render)':>15}  last run"
    )
    for name in BUILDS:
        values = times[name]
        print(
            f"{name:<13} {min(values):7.2f} {med[name]:9.2f} {max(values):7.2f} "
            f"{med[name] / render:8.2f} {med[name] / execution:7.2f} "
            f"{med[name] / (execution + render):15.2f}  {said[name]}"
        )
    print("\ntargets (medians):")
    for name, limit, against in TARGETS:
        floor = sum(med[part] for part in against)
        ratio = med[name] / floor
        verdict = "met" if ratio <= limit else "MISSED"
        print(f"  {name} <= {limit} x ({' + '.join(against)}): {ratio:.2f}  {verdict}")


if __name__ == "__main__":
    main()
