"""What `./book --help` and `./book COMMAND --help` say, and each command's options.

Options a command does not know go on to the tool it runs (mkdocs, pytest, the benchmarks), as
they did when `./book` was a shell script: those commands are `PASSES_ON`'s.
"""

from __future__ import annotations

import argparse
import textwrap

PROG = "./book"
EXIT_CODES = """\
exit codes:
  0    done (drift-watch: whatever the book did; its artifacts say)
  1    a step failed: a build, a check, a test, an install; a tool's own code is passed on
  2    a usage error: an unknown command or option, or a bad value (the message names it)
  130  interrupted (Ctrl+C)
  143  terminated (SIGTERM)
"""
# The commands in the order `./book --help` lists them, each with its one line.
SUMMARIES = {
    "serve": "set up, then serve the book with live reload on http://127.0.0.1:8000",
    "build": "set up, then run the strict build that CI runs",
    "update": "set up, then rewrite the goldens (all, one page's or one block's); what changed",
    "run": "run one shard of the book's pages and write their records (no judge, no pages)",
    "review": "walk the drift the last failed build left: accept, skip or reject each",
    "jax-changes": "run every block under each older JAX too; regenerate docs/jax-changes.md",
    "accelerators": "regenerate docs/accelerators.md from the accelerator's records",
    "drift-watch": "check and update a scratch copy under another JAX; artifacts",
    "test": "set up with the test tools, then lint, type-check and run the test suite",
    "test-engine": "the engine's own suite, in a venv of its wheel alone, on each Python 3.10+",
    "bench": "time builds (with serve: what an author waits for; with update: one golden)",
    "stress": "the strict build, cache off, N times (3) per load; each claim's margin",
    "setup": "only set up (with --test, the test tools too)",
    "jax-venv": "make .cache/jax-X.Y.Z (another JAX in place of the pin) and print its path",
    "help": "this list, or a command's help",
}
_SHOWN = {
    "drift-watch": "drift-watch --jax X.Y.Z",
    "test": "test [--yes|--fast]",
    "test-engine": "test-engine [PYTHON...]",
    "update": "update [PAGE[#BLOCK]]",
    "run": "run --shard I/N [--records DIR] [--block-cache] | --cache-key",
    "bench": "bench [serve|update|small|transfer|shards]",
    "stress": "stress [N] [--profile P]",
    "setup": "setup [--test]",
    "jax-venv": "jax-venv X.Y.Z",
}
# These hand the options they do not know to the tool they run.
PASSES_ON = {
    "serve": "mkdocs serve (.venv/bin/mkdocs serve --help lists them)",
    "build": "mkdocs build --strict (.venv/bin/mkdocs build --help lists them)",
    "update": "mkdocs build --strict (.venv/bin/mkdocs build --help lists them)",
    "test": "pytest (.venv/bin/pytest --help lists them)",
    "test-engine": "pytest, in each Python's venv",
    "bench": "benchmarks/bench_build.py, or after serve to benchmarks/bench_serve.py,\n"
    "after update to benchmarks/bench_update.py, after small to benchmarks/bench_small.py,\n"
    "after transfer to benchmarks/bench_transfer.py, after shards to benchmarks/bench_shards.py\n"
    "(each one's --help lists them)",
}


DESCRIPTIONS = {
    "serve": "Set up .venv, then run `mkdocs serve --dirty`: pages at once from the goldens, "
    "their blocks run behind them, live reload on http://127.0.0.1:8000; a rebuild renders "
    "only the pages an edit touches (--clean renders every page).",
    "build": "Set up .venv, then run the strict build CI runs (`mkdocs build --strict`): a "
    "failed, drifted, new or stale golden fails it, after the drift report.",
    "update": "Set up .venv, then rewrite the goldens (GOLDEN=update mkdocs build --strict) and "
    "show what changed in the goldens and docs (git status). With PAGE (docs/tracers.md, "
    "tracers.md or tracers) it runs only that page and writes only its goldens; with "
    "PAGE#BLOCK, only that block, after the blocks before it on its page that its session "
    "needs, and writes only that golden; no page is rendered (./book build checks them "
    "after). An unknown page or block is an error naming those the book has.",
    "run": "Plan the whole book, run only the pages of shard I of N (pages assigned by their "
    "blocks' last run times, .cache/bookexec/run-times.json, a page never split) and write "
    "their records to DIR/shard-I-of-N.json (default .cache/bookexec/records), without judging "
    "or rendering; the blocks it ran are stored in the block cache (.cache/bookexec/blocks; "
    "not with BOOK_CACHE=off), "
    "and with --block-cache the blocks the cache holds are not run again, their records saying "
    "so (a block that recorded a timing or a ratio always runs). "
    "Then `./book build --records DIR` (or `./book update --records DIR`) reads "
    "every shard's records as its runs, refusing a missing, duplicate, stale or foreign shard, "
    "and judges and renders the book as an unsharded build does. With --cache-key instead, "
    "print the key of the environment the shards' records and the block cache hold (a "
    "digest of it, for a CI cache's key) and run nothing.",
    "review": "Walk the drift the last failed check build left (.cache/bookexec/"
    "last-report.json): [a]ccept, [s]kip, [r]eject or [q]uit each block. Without a terminal "
    "it only lists.",
    "jax-changes": "Run every block under each older JAX release (each in .cache/jax-X.Y.Z, "
    "made as needed), record the outputs in tests/other-jax/, and regenerate "
    "docs/jax-changes.md.",
    "accelerators": "Regenerate docs/accelerators.md (On a GPU or TPU) from the records in "
    "tests/other-backends/ and their notes (tests/other-backends/notes.toml). With --record "
    "NAME, first run every chapter's notebook of the built site (./book build writes them) "
    "with --python (default: this venv's) and record each block under "
    "tests/other-backends/NAME: on an accelerator's machine, hooks/jaxbook/backend_run.py "
    "does the same with nothing installed (docs/guide/upgrades.md says how).",
    "drift-watch": "What the next JAX upgrade would change: check and update a scratch copy of "
    "the checkout under another JAX, and leave the artifacts (versions.txt, report.txt, "
    "last-report.json, update.txt, golden.diff, summary.json). The checkout's goldens are never "
    "touched; it exits 0 whatever the book did. The weekly workflow runs this.",
    "test": "Set up .venv with the test tools, make sure Debian's chromium is there for the "
    "browser tests (installed with apt-get after a yes: --yes, CI set, or an answer at the "
    "terminal), then ruff, mypy and the test suite (pytest -n 5 --dist loadfile): its layers "
    "are tests/unit, tests/integration and tests/e2e, and `./book test tests/unit` runs one (the "
    "unit layer alone skips chromium, ruff and mypy). With --fast: ruff, mypy and the unit and "
    "integration layers only (no chromium needed), a few minutes: the check before a commit.",
    "test-engine": "Run the engine's own suite (the tests marked engine and not needs_book) on "
    "each Python named, 3.10, 3.11, 3.12 and 3.13 by default: the engine's wheel is built from "
    "hooks/ and installed, with its test extra and nothing of the book, in .cache/engine-pyX.Y "
    "(kept until hooks/pyproject.toml changes). It first imports every module of the engine, "
    "then runs pytest. Each Python is found as pythonX.Y on PATH, in pyenv's versions, or by uv. "
    "./book test runs it for each Python (tests/e2e/test_engine_pythons.py).",
    "bench": "Time builds (benchmarks/bench_build.py), or, with serve, what an author waits for "
    "under mkdocs serve (benchmarks/bench_serve.py), or, with update, the update of one block "
    "against the whole book's (benchmarks/bench_update.py), or, with small, the engine's check "
    "build of a small markdown-exec book against markdown-exec's own build of it "
    "(benchmarks/bench_small.py), or, with transfer, the requests and bytes a reader's browser "
    "loads for a chapter and a lab page of the built site/ (benchmarks/bench_transfer.py), or, "
    "with shards, a generated book of 2,000 blocks built on one machine against 4 shards run side "
    "by side and judged, and the judge's growth with the book (benchmarks/bench_shards.py). Sets "
    "up the test tools (Playwright).",
    "stress": "The strict build with the cache off, N times (default 3) in each profile: quiet, "
    "busy (busy loops take every core twice over; BOOK_STRESS_LOOPS to change) and one-core "
    "(pinned to one core, as taskset -c 0). It ends with the claim-margin table: each claim's "
    "worst value per profile, and how many times over it held; a claim on a timing or a ratio "
    "must hold 1.5 times over in the worst run, or the command fails.",
    "setup": "Only set up .venv (with --test, the test tools too). It is installed again when "
    "pyproject.toml or .python-version change.",
    "jax-venv": "Make .cache/jax-X.Y.Z, the book's packages with jax==X.Y.Z in place of the pin "
    "(kept until pyproject.toml or .python-version change), and print its path. The tests use "
    "it.",
}


def parser() -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """The top-level parser and each command's own."""
    shown = {name: _SHOWN.get(name, name) for name in SUMMARIES}
    width = max(map(len, shown.values())) + 2
    listing = "\n".join(f"  {PROG} {shown[n]:<{width}}{s}" for n, s in SUMMARIES.items())
    top = argparse.ArgumentParser(
        prog=PROG,
        usage=f"{PROG} [-h] COMMAND [OPTIONS...]",
        description="The book's one command line. Every command sets up .venv first if needed.",
        epilog=f"commands:\n{listing}\n\n{EXIT_CODES}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    # The epilog lists the commands, in the words of the old script's header.
    sub = top.add_subparsers(dest="command", metavar="COMMAND", help=argparse.SUPPRESS)
    commands = {}
    for name, summary in SUMMARIES.items():
        passes_on = PASSES_ON.get(name)
        epilog = f"other options go to {passes_on}\n\n" if passes_on else ""
        commands[name] = sub.add_parser(
            name,
            prog=f"{PROG} {name}",
            description=textwrap.fill(DESCRIPTIONS.get(name, summary), 79),
            epilog=epilog + EXIT_CODES,
            formatter_class=argparse.RawDescriptionHelpFormatter,
            allow_abbrev=not passes_on,  # `--h` is the tool's, not a short `--help`
        )
    _arguments(commands)
    return top, commands


def _arguments(commands: dict[str, argparse.ArgumentParser]) -> None:
    run = commands["run"].add_mutually_exclusive_group(required=True)
    run.add_argument("--shard", type=_shard, metavar="I/N", help="this shard, of N (1 <= I <= N)")
    run.add_argument(
        "--cache-key",
        action="store_true",
        help="print the engine's cache key (a digest, for a CI cache's key); run nothing",
    )
    commands["run"].add_argument(
        "--block-cache",
        action="store_true",
        help="take unchanged blocks' runs from the block cache (a block that measured runs)",
    )
    for name in ("run", "build", "update"):
        commands[name].add_argument(
            "--records",
            metavar="DIR",
            help="the shards' records (run: written; build, update: read as the runs)",
        )
    review = commands["review"].add_mutually_exclusive_group()
    review.add_argument("--accept-cosmetic", action="store_true", help="accept cosmetic drift")
    review.add_argument("--list", action="store_true", help="only list the report")
    changes = commands["jax-changes"]
    changes.add_argument("--page-only", action="store_true", help="only regenerate the page")
    changes.add_argument(
        "--chapter", action="append", default=[], help="re-record only this page (repeat)"
    )
    changes.add_argument(
        "--python",
        action="append",
        default=[],
        help="an interpreter with an older JAX, instead of the releases' venvs (repeat)",
    )
    accelerators = commands["accelerators"]
    accelerators.add_argument("--record", metavar="NAME", help="record first, as NAME")
    accelerators.add_argument("--python", help="the interpreter that records (with --record)")
    watch = commands["drift-watch"]
    watch.add_argument("--jax", help="the JAX release to watch, X.Y.Z or latest (required)")
    watch.add_argument("--out", help="where the artifacts go (default .cache/drift-watch/JAX)")
    watch.add_argument("--keep", action="store_true", help="keep the scratch copy (out/book)")
    watch.add_argument(
        "--python", help="an interpreter with that JAX, instead of .cache/jax-JAX (made as needed)"
    )
    commands["test"].add_argument(
        "--yes", action="store_true", help="install Debian's chromium without asking"
    )
    commands["test"].add_argument(
        "--fast",
        action="store_true",
        help="the unit and integration layers only: no browser, no build of the whole book",
    )
    commands["test-engine"].add_argument(
        "pythons",
        nargs="*",
        type=_python,
        metavar="PYTHON",
        help="a Python version, 3.10 to 3.13 (repeat; default all)",
    )
    commands["bench"].usage = f"{PROG} bench [-h] [serve|update|small|transfer|shards] [OPTIONS...]"
    commands["update"].usage = f"{PROG} update [-h] [PAGE[#BLOCK]] [OPTIONS...]"
    commands["stress"].add_argument(
        "runs", nargs="?", type=_runs, default=3, metavar="N", help="how many builds (3)"
    )
    commands["stress"].add_argument(
        "--profile",
        action="append",
        choices=("quiet", "busy", "one-core"),
        help="only this load (repeat); default all three",
    )
    commands["setup"].add_argument("--test", action="store_true", help="the test tools too")
    commands["jax-venv"].add_argument("version", metavar="X.Y.Z", help="the JAX release")
    commands["help"].add_argument("topic", nargs="?", metavar="COMMAND", choices=SUMMARIES)


def _python(text: str) -> str:
    from jaxbook.cli.engine_suite import PYTHONS

    if text not in PYTHONS:
        raise argparse.ArgumentTypeError(
            f"test-engine takes Python versions among {', '.join(PYTHONS)}, not {text!r}"
        )
    return text


def _runs(text: str) -> int:
    if not text.isdigit() or int(text) == 0:
        raise argparse.ArgumentTypeError(f"stress takes a number of runs (default 3), not {text!r}")
    return int(text)


def _shard(text: str) -> tuple[int, int]:
    shard, _, shards = text.partition("/")
    if not (shard.isdigit() and shards.isdigit() and 1 <= int(shard) <= int(shards)):
        raise argparse.ArgumentTypeError(
            f"--shard takes I/N with 1 <= I <= N, such as 2/4, not {text!r}"
        )
    return int(shard), int(shards)
