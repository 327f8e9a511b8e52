"""Time a generated book built on one machine and as shards run side by side (issue 57).

The book (`scale_book.py`): --blocks blocks, 20 a page, plain Python and NumPy with some tiny
JAX, every output the same on every run. Its goldens are written once (`book update`,
untimed), then, on the book's own command line in its folder, as CI would run it:
- single: the cold strict check on one machine (`book build`, GOLDEN=check, the block cache
  emptied first), every block run;
- shard I/N: the N shards started at once, side by side on this machine (`book run --shard
  I/N --records DIR`), each one's wall time;
- judge: the build over every shard's records (`book build --records DIR`, GOLDEN=check);
- the engine's overhead per block: the same cold build one page at a time (BOOK_JOBS=1, so
  that the blocks' times add up to the build's), its wall time less the blocks' own run times
  (`.cache/bookexec/run-times.json`, which that build wrote), over the blocks.
At each of --sizes (a book of that many blocks, made and updated the same way, its shards
run) the judge and the render floor (`BOOK_EXEC=off`: the site from the goldens, nothing run
or judged) are timed, and the growth is checked: time per block at the largest size <=
1.5 x at the smallest (linear or better).

Every timed step runs --rounds times (medians reported), each beside the machine's load
(/proc/loadavg's 1-minute average just before it). Prints a Markdown table and writes it as
JSON (--json). Exits 1 when a build fails, when single and sharded verdicts differ, or when
a book's blocks are not all checked.

    ./book bench shards                                    # 2,000 blocks, 4 shards
    ./book bench shards --blocks 40 --shards 2 --sizes 20,40 --json out.json

Machines here are noisy and shared: read the ratios and the load, not the seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from scale_book import PER_PAGE, write_book

REPO = Path(__file__).resolve().parent.parent
GROWTH = 1.5  # time per block at the largest size <= GROWTH x at the smallest
# The caller's engine switches would change what is timed; PYTHONDONTWRITEBYTECODE would make
# every worker compile the engine again (see bench_small.py).
DROPPED = {"BOOK_EXEC", "BOOK_CACHE", "BOOK_RECORDS", "BOOK_JOBS", "GOLDEN", "GOLDEN_ONLY"}
DROPPED |= {"PYTHONDONTWRITEBYTECODE"}
CHECK = re.compile(
    r"golden check: (\d+) blocks checked, (\d+) failed, (\d+) drifted, (\d+) new, (\d+) stale"
)


class BenchError(Exception):
    """A step failed: the bench stops and says which, with the step's log."""


@dataclass
class Step:
    """One timed step: its median over the rounds, and the load before each round."""

    name: str
    blocks: int
    seconds: list[float] = field(default_factory=list)
    loads: list[float] = field(default_factory=list)

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)

    def row(self) -> dict[str, object]:
        per_block = self.median / self.blocks * 1000 if self.blocks else 0.0
        return {**asdict(self), "median": round(self.median, 3), "ms_per_block": per_block}


def load() -> float:
    """The machine's 1-minute load average now (the machine is shared: said beside each time)."""
    try:
        return float(Path("/proc/loadavg").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return float("nan")


def environ(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in DROPPED}
    return {**env, "NO_MKDOCS_2_WARNING": "1", **extra}


def book_command(python: Path, root: Path, *args: str, **env: str) -> subprocess.Popen[str]:
    """`book ARGS` in the book's folder, as CI runs it (the engine from --python's venv)."""
    return subprocess.Popen(
        [str(python), "-m", "jaxbook.cli", *args],
        cwd=root,
        env=environ(**env),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def finished(proc: subprocess.Popen[str], what: str, check: bool = False) -> str:
    """The step's log; a failure stops the bench, but for a check build whose log has its
    verdict (a drift fails the build: the verdicts then say so, side by side)."""
    log, _ = proc.communicate()
    if proc.returncode != 0 and not (check and CHECK.search(log)):
        raise BenchError(f"{what} failed (exit {proc.returncode}):\n{log}")
    return log


def timed(step: Step, python: Path, root: Path, *args: str, **env: str) -> str:
    """One round of `step`: `book ARGS`, timed; returns its log."""
    step.loads.append(load())
    start = time.perf_counter()
    proc = book_command(python, root, *args, **env)
    log = finished(proc, f"{step.name} ({' '.join(args)})", check=env.get("GOLDEN") == "check")
    step.seconds.append(time.perf_counter() - start)
    return log


def verdict(log: str) -> dict[str, int]:
    """The golden check's counts, as the build's log says them."""
    found = CHECK.search(log)
    assert found, "timed() let a check build without its verdict through"
    names = ("checked", "failed", "drifted", "new", "stale")
    return dict(zip(names, map(int, found.groups()), strict=True))


def run_shards(python: Path, root: Path, shards: int, records: Path, steps: list[Step]) -> None:
    """One round: every shard started at once; each one's wall time when it ends."""
    shutil.rmtree(records, ignore_errors=True)
    before = load()
    start = time.perf_counter()
    procs = [
        book_command(python, root, "run", "--shard", f"{i}/{shards}", "--records", str(records))
        for i in range(1, shards + 1)
    ]
    ends: dict[int, float] = {}
    while len(ends) < shards:
        for i, proc in enumerate(procs):
            if i not in ends and proc.poll() is not None:
                ends[i] = time.perf_counter() - start
        time.sleep(0.02)
    for i, (step, proc) in enumerate(zip(steps, procs, strict=True)):
        finished(proc, step.name)
        step.loads.append(before)
        step.seconds.append(ends[i])


def shard_blocks(records: Path, shards: int) -> list[tuple[int, int, float]]:
    """Each shard's pages, blocks and the blocks' own seconds, from its records."""
    counts = []
    for i in range(1, shards + 1):
        pages = json.loads((records / f"shard-{i}-of-{shards}.json").read_text())["pages"]
        blocks = [block for page in pages.values() for block in page["blocks"]]
        counts.append((len(pages), len(blocks), sum(b["seconds"] or 0.0 for b in blocks)))
    return counts


def own_seconds(root: Path) -> float:
    """The blocks' own run times the last build wrote (`run-times.json`), summed."""
    times = json.loads((root / ".cache" / "bookexec" / "run-times.json").read_text())
    return float(sum(times.values()))


@dataclass
class Size:
    """What one book size measured."""

    blocks: int
    pages: int
    judge: Step
    render: Step
    shards: list[Step]
    shard_blocks: list[tuple[int, int, float]] = field(default_factory=list)
    single: Step | None = None
    serial: Step | None = None
    own: list[float] = field(default_factory=list)
    verdicts: dict[str, dict[str, int]] = field(default_factory=dict)


def measure(args: argparse.Namespace, folder: Path, blocks: int, full: bool) -> Size:
    """Make and update a book of `blocks` blocks, then time its steps --rounds times (the
    single cold build only when `full`)."""
    root = folder / f"book-{blocks}"
    pages = write_book(root, blocks)
    finished(book_command(args.python, root, "update"), f"the update of {blocks} blocks")
    records = folder / f"records-{blocks}"
    size = Size(
        blocks,
        pages,
        judge=Step("judge (build --records)", blocks),
        render=Step("render floor (BOOK_EXEC=off)", blocks),
        shards=[Step(f"shard {i}/{args.shards}", 0) for i in range(1, args.shards + 1)],
        single=Step("single cold build", blocks) if full else None,
        serial=Step("single cold build, one page at a time", blocks) if full else None,
    )
    for number in range(args.rounds):
        if size.single is not None and size.serial is not None:
            shutil.rmtree(root / ".cache" / "bookexec" / "blocks", ignore_errors=True)
            log = timed(size.single, args.python, root, "build", GOLDEN="check")
            size.verdicts["single"] = verdict(log)
            shutil.rmtree(root / ".cache" / "bookexec" / "blocks", ignore_errors=True)
            timed(size.serial, args.python, root, "build", GOLDEN="check", BOOK_JOBS="1")
            size.own.append(own_seconds(root))
        run_shards(args.python, root, args.shards, records, size.shards)
        log = timed(
            size.judge, args.python, root, "build", "--records", str(records), GOLDEN="check"
        )
        size.verdicts["sharded"] = verdict(log)
        timed(size.render, args.python, root, "build", BOOK_EXEC="off")
        print(f"  {blocks} blocks, round {number + 1}/{args.rounds} done", file=sys.stderr)
    size.shard_blocks = shard_blocks(records, args.shards)
    for step, (_, count, _) in zip(size.shards, size.shard_blocks, strict=True):
        step.blocks = count
    return size


def ms(seconds: float, blocks: int) -> str:
    return f"{seconds / blocks * 1000:.2f}" if blocks else ""


def loads(step: Step) -> str:
    return ", ".join(f"{value:.2f}" for value in step.loads)


def main_table(size: Size, shards: int) -> tuple[list[str], dict[str, object]]:
    """The single-versus-sharded table at the full size, and its numbers."""
    assert size.single is not None and size.serial is not None
    own = statistics.median(size.own)
    overhead = size.serial.median - own
    slowest = max(step.median for step in size.shards)
    rows = [
        "| step | pages | blocks | seconds | ms per block | load before |",
        "| --- | ---: | ---: | ---: | ---: | --- |",
        f"| single cold build | {size.pages} | {size.blocks} | {size.single.median:.2f} "
        f"| {ms(size.single.median, size.blocks)} | {loads(size.single)} |",
        f"| {size.serial.name} | {size.pages} | {size.blocks} | {size.serial.median:.2f} "
        f"| {ms(size.serial.median, size.blocks)} | {loads(size.serial)} |",
        f"| its blocks' own run time (run-times.json) | | {size.blocks} | {own:.2f} "
        f"| {ms(own, size.blocks)} | |",
        f"| engine overhead (one page at a time - blocks' own) | | {size.blocks} "
        f"| {overhead:.2f} | {ms(overhead, size.blocks)} | |",
    ]
    for step, (pages, count, seconds) in zip(size.shards, size.shard_blocks, strict=True):
        rows.append(
            f"| {step.name} (blocks' own {seconds:.2f} s) | {pages} | {count} "
            f"| {step.median:.2f} | {ms(step.median, count)} | {loads(step)} |"
        )
    rows += [
        f"| {shards} shards side by side (the slowest) | {size.pages} | {size.blocks} "
        f"| {slowest:.2f} | {ms(slowest, size.blocks)} | |",
        f"| judge (build --records) | {size.pages} | {size.blocks} | {size.judge.median:.2f} "
        f"| {ms(size.judge.median, size.blocks)} | {loads(size.judge)} |",
        f"| sharded total (slowest shard + judge) | {size.pages} | {size.blocks} "
        f"| {slowest + size.judge.median:.2f} "
        f"| {ms(slowest + size.judge.median, size.blocks)} | |",
    ]
    numbers = {
        "single": size.single.row(),
        "single_one_page_at_a_time": size.serial.row(),
        "own_seconds": own,
        "overhead_seconds": overhead,
        "overhead_ms_per_block": overhead / size.blocks * 1000,
        "shards": [
            {**step.row(), "pages": pages, "own_seconds": seconds}
            for step, (pages, _, seconds) in zip(size.shards, size.shard_blocks, strict=True)
        ],
        "slowest_shard": slowest,
        "judge": size.judge.row(),
        "sharded_total": slowest + size.judge.median,
    }
    return rows, numbers


def growth_table(sizes: list[Size]) -> tuple[list[str], dict[str, object], bool]:
    """The judge and the render floor at each size, and their growth per block."""
    rows = [
        "| blocks | judge s | ms/block | marginal ms/block | load "
        "| render floor s | ms/block | marginal ms/block | load |",
        "| ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | --- |",
    ]
    before: Size | None = None
    for size in sizes:
        cells = [str(size.blocks)]
        for step in (size.judge, size.render):
            cells += [f"{step.median:.2f}", ms(step.median, size.blocks)]
            cells += [marginal(before, size, step.name), loads(step)]
        rows.append(f"| {' | '.join(cells)} |")
        before = size
    rows.append("\nmarginal: (time - time at the size before) / (blocks added)\n")
    small, large = sizes[0], sizes[-1]
    ratios = {}
    for name in ("judge", "render"):
        per = [getattr(s, name).median / s.blocks for s in (small, large)]
        ratios[name] = per[1] / per[0]
    linear = all(ratio <= GROWTH for ratio in ratios.values())
    for name, ratio in ratios.items():
        met = "met" if ratio <= GROWTH else "MISSED"
        rows.append(
            f"{name}: time per block at {large.blocks} / at {small.blocks} blocks = "
            f"{ratio:.2f} (<= {GROWTH}: {met})"
        )
    numbers = {
        "sizes": [
            {"blocks": s.blocks, "judge": s.judge.row(), "render": s.render.row()} for s in sizes
        ],
        "growth": ratios,
        "growth_limit": GROWTH,
    }
    return rows, numbers, linear


def marginal(before: Size | None, size: Size, name: str) -> str:
    """What each block added since the size before (the start-up both pay taken out)."""
    if before is None:
        return ""
    steps = [s.judge if s.judge.name == name else s.render for s in (before, size)]
    return ms(steps[1].median - steps[0].median, size.blocks - before.blocks)


def agreement(full: Size) -> tuple[bool, str]:
    """Single and sharded verdicts are the same, and every block was checked clean."""
    single, sharded = full.verdicts["single"], full.verdicts["sharded"]
    clean = {"checked": full.blocks, "failed": 0, "drifted": 0, "new": 0, "stale": 0}
    if single != sharded:
        return False, f"verdicts DIFFER: single {single}, sharded {sharded}"
    if single != clean:
        return False, f"verdicts agree but NOT every block checked clean: {single}"
    return True, f"verdicts agree: {single}"


def arguments() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--blocks", type=int, default=2000, help="the full book's blocks")
    parser.add_argument("--shards", type=int, default=4)
    parser.add_argument(
        "--sizes", default="500,1000,2000", help="books (blocks) whose judge and render are timed"
    )
    parser.add_argument("--rounds", type=int, default=1, help="each timed step's repeats")
    parser.add_argument(
        "--json", type=Path, default=REPO / ".cache" / "bench" / "shards.json", help="the table"
    )
    parser.add_argument("--python", type=Path, default=Path(sys.executable))
    parser.add_argument("--keep", type=Path, help="make the books here, and keep them")
    return parser


def parsed() -> argparse.Namespace:
    parser = arguments()
    args = parser.parse_args()
    try:
        args.sizes = sorted({int(text) for text in args.sizes.split(",")})
    except ValueError:
        parser.error(f"--sizes takes block counts such as 500,1000,2000, not {args.sizes!r}")
    if min([*args.sizes, args.blocks]) < 1 or args.shards < 1 or args.rounds < 1:
        parser.error("--blocks, --sizes, --shards and --rounds must be at least 1")
    if args.blocks < args.shards * PER_PAGE:
        parser.error(f"--blocks {args.blocks}: fewer than {PER_PAGE} blocks a shard")
    return args


def bench(args: argparse.Namespace, folder: Path) -> int:
    sizes = sorted(set(args.sizes) | {args.blocks})
    measured = {}
    for blocks in sizes:
        print(f"book of {blocks} blocks: update, then {args.rounds} round(s)", file=sys.stderr)
        measured[blocks] = measure(args, folder, blocks, full=blocks == args.blocks)
    full = measured[args.blocks]
    rows, numbers = main_table(full, args.shards)
    series = [measured[blocks] for blocks in args.sizes]
    growth_rows, growth, linear = growth_table(series)
    agree, said = agreement(full)
    print(f"\ncores: {os.cpu_count()}; rounds: {args.rounds} (medians); load: /proc/loadavg 1 min")
    print(f"\n### {args.blocks} blocks: one machine against {args.shards} shards side by side\n")
    print("\n".join(rows))
    print(f"\n{said}")
    print("\n### The judge and the render as the book grows\n")
    print("\n".join(growth_rows))
    result = {
        "blocks": args.blocks,
        "shards": args.shards,
        "rounds": args.rounds,
        "cores": os.cpu_count(),
        "verdicts": full.verdicts,
        "verdicts_agree": agree,
        "linear": linear,
        **numbers,
        **growth,
        "table": rows,
        "growth_table": growth_rows,
    }
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(result, indent=2) + "\n")
    print(f"\nwritten: {args.json}")
    return 0 if agree else 1


def main() -> int:
    args = parsed()
    args.python = args.python.absolute()
    try:
        if args.keep:
            args.keep.mkdir(parents=True, exist_ok=True)
            return bench(args, args.keep.resolve())
        with tempfile.TemporaryDirectory(prefix="book-bench-shards-") as folder:
            return bench(args, Path(folder))
    except BenchError as error:
        print(f"bench shards: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
