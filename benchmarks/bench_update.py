"""Time what writing one golden costs an author, before and after `./book update PAGE#BLOCK`.

Figures (each a median of --rounds runs, on a copy of the book, in one run):
- trivial-build: `mkdocs build --strict` of a one-page Material site, the yardstick
  (`bench_serve.trivial_site`);
- one-block: a `print(...)` line appended to the snippet (--snippet), then the update of its
  block alone (`python -m jaxbook.cli.partial PAGE#BLOCK`, what `./book update PAGE#BLOCK`
  runs: its page's run, no page rendered); printed with the seconds its page's worker ran,
  as the progress line reports them;
- full-update (unless --no-full): the same edit again, then the update of the whole book
  (`GOLDEN=update mkdocs build --strict`, what `./book update` runs): what one new golden
  cost before the update could be limited.

Target, from the same run's medians: one-block <= its page's worker run + 1.5 x trivial-build.
Each update must write the block's golden, and the one-block update that golden alone.
`--before DIR` times the one-block update of another checkout too (for example `git archive`
of the commit before a change), round by round in the same run, against its own target.

    ./book bench update                 # 3 rounds, with the full update as the before
    ./book bench update --rounds 1 --no-full
    ./book bench update --no-full --before /tmp/old
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_serve import MKDOCS, REPO, copy_book, environ, golden_of, trivial_site
from common import SNIPPET, check_edits

LIMIT = 1.5  # x trivial-build, on top of the page's own run


def update(root: Path, only: str = "") -> tuple[float, str]:
    """Seconds of one update, as `./book update [PAGE#BLOCK]` runs it, and its log."""
    partial = [sys.executable, "-m", "jaxbook.cli.partial", only]
    start = time.perf_counter()
    proc = subprocess.run(
        partial if only else [str(MKDOCS), "build", "--strict"],
        cwd=root,
        env=environ(root, GOLDEN="update"),
        capture_output=True,
        text=True,
    )
    seconds = time.perf_counter() - start
    log = proc.stdout + proc.stderr
    # The whole book's update may refuse a timing claim on a loaded machine: it has still
    # written what it could, which `one_round` checks.
    if proc.returncode != 0 and (only or not written(log)):
        sys.exit(f"update failed in {root} (GOLDEN_ONLY={only!r}):\n{log}")
    if proc.returncode != 0:
        print(f"  (the whole update exited {proc.returncode}: {log.strip().splitlines()[-1]})")
    return seconds, log


def build(root: Path) -> float:
    start = time.perf_counter()
    proc = subprocess.run(
        [str(MKDOCS), "build", "--strict"], cwd=root, env=environ(), capture_output=True
    )
    if proc.returncode != 0:
        sys.exit(f"the trivial build failed:\n{proc.stdout!r}{proc.stderr!r}")
    return time.perf_counter() - start


def page_seconds(log: str, page: str) -> float:
    """The seconds the page's worker ran, as its progress line says."""
    found = re.findall(rf"docs/{re.escape(page)}: \d+ run[^\n]*?([\d.]+) s\n", log)
    if not found:
        sys.exit(f"no progress line for docs/{page} in the update's log:\n{log}")
    return float(found[-1])


def written(log: str) -> list[str]:
    """The goldens an update says it wrote."""
    return re.findall(r"bookexec: (?:rewrote|wrote new) (tests/golden/\S+)", log)


def drift(root: Path, snippet: str, number: int) -> None:
    """A line that changes the block's output: its golden must be written again."""
    with (root / snippet).open("a") as handle:
        handle.write(f'print("benchmark update {number}")\n')


def one_round(root: Path, trivial: Path, args: argparse.Namespace, number: int) -> dict[str, float]:
    found = golden_of(root, args.snippet)
    if found is None:
        sys.exit(f"--snippet: no golden shows {args.snippet}")
    path, block = found
    page = f"{path.parent.relative_to(root / 'tests' / 'golden').as_posix()}.md"
    golden = path.relative_to(root).as_posix()
    done = {"trivial-build": build(trivial)}
    drift(root, args.snippet, 2 * number)
    print(f"round {number + 1} trivial-build  {done['trivial-build']:8.2f} s", flush=True)
    done["one-block"], log = update(root, f"{page}#{block}")
    print(f"round {number + 1} one-block      {done['one-block']:8.2f} s", flush=True)
    if written(log) != [golden]:
        sys.exit(f"the one-block update wrote {written(log)}, not [{golden}]:\n{log}")
    done["page-run"] = page_seconds(log, page)
    if not args.no_full:
        drift(root, args.snippet, 2 * number + 1)
        done["full-update"], log = update(root)
        if golden not in written(log):
            sys.exit(f"the full update did not write {golden}:\n{log}")
    return done


def arguments() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--snippet", default=SNIPPET, help="the snippet whose block is updated")
    parser.add_argument(
        "--no-full", action="store_true", help="skip the whole book's update (the before)"
    )
    parser.add_argument("--before", type=Path, help="a checkout whose one-block update to time")
    return parser


def main() -> None:
    args = arguments().parse_args()
    check_edits(REPO, "index.md", args.snippet)
    books = {"now": REPO} | ({"before": args.before.resolve()} if args.before else {})
    times: dict[str, dict[str, list[float]]] = {name: {} for name in books}
    for number in range(args.rounds):
        for name, source in books.items():  # interleaved: both see the same load
            with tempfile.TemporaryDirectory(prefix="book-bench-update-") as folder:
                root = Path(folder) / "book"
                copy_book(source, root)
                trivial = trivial_site(Path(folder))
                options = argparse.Namespace(
                    **{**vars(args), "no_full": args.no_full or name != "now"}
                )
                for figure, seconds in one_round(root, trivial, options, number).items():
                    times[name].setdefault(figure, []).append(seconds)
                done = times[name]
                print(
                    f"round {number + 1} {name}: "
                    + ", ".join(f"{k} {v[-1]:.2f} s" for k, v in done.items())
                )
    print(f"\nrounds: {args.rounds}; snippet: {args.snippet}")
    for name in books:
        med = {figure: statistics.median(values) for figure, values in times[name].items()}
        trivial = med["trivial-build"]
        print(f"\n{name} ({books[name]})")
        print(f"{'figure':<14} {'median s':>9} {'x trivial':>10}")
        for figure, value in med.items():
            print(f"{figure:<14} {value:9.2f} {value / trivial:10.2f}")
        allowed = med["page-run"] + LIMIT * trivial
        short = med["one-block"] - allowed
        verdict = "met" if short <= 0 else f"missed by {short:.2f} s"
        print(
            f"target: one-block <= page-run + {LIMIT} x trivial-build = {allowed:.2f} s: "
            f"{med['one-block']:.2f} s, {verdict}"
        )
        if "full-update" in med:
            print(f"the whole book's update: {med['full-update']:.2f} s, for the same golden")


if __name__ == "__main__":
    main()
