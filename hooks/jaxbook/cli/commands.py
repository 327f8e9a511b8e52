"""What each command does, once its options are parsed: `COMMANDS[name](root, options, rest,
parser)`.

The engine is imported inside the commands, after `prepare` has set `.venv` up: on a fresh
checkout its dependencies are installed only then.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING

from jaxbook.cli.chromium import ensure_chromium
from jaxbook.cli.engine_suite import test_engine
from jaxbook.cli.environments import Environment, jax_venv, prepare, set_up
from jaxbook.cli.parser import parser
from jaxbook.cli.process import Failed, become, call
from jaxbook.cli.stress import stress

if TYPE_CHECKING:
    from bookexec import BookContext


def _book(root: Path) -> BookContext:
    """The book at `root`, opened as a build opens it (`bookexec._internal.context.open_book`)."""
    from bookexec import open_book

    return open_book(root / "mkdocs.yml", os.environ)


@contextmanager
def _engine_errors() -> Iterator[None]:
    # Imported here, after the set-up: bookexec._internal.errors imports MkDocs, which it installs.
    from bookexec._internal.errors import BookError

    try:
        yield
    except BookError as error:
        raise Failed(1, f"book: {error}") from None


Options = argparse.Namespace
Parser = argparse.ArgumentParser
# A release as pip names one (0.11.2, 0.12.0.1, 0.13.0rc1): anything else would reach pip, and a
# folder name, before it failed.
_RELEASE = re.compile(r"\d+(\.\d+)+((a|b|rc)\d+)?")


def _release(command: Parser, option: str, text: str) -> str:
    if not _RELEASE.fullmatch(text):
        command.error(f"{option} takes a JAX release such as 0.11.2, not {text!r}")
    return text


def _serve(root: Path, options: Options, rest: list[str], command: Parser) -> int:
    become(serve_command(prepare(root), rest))
    return 0


def serve_command(env: Environment, rest: list[str]) -> list[str | Path]:
    """What `./book serve` becomes: `mkdocs serve`, through `cli.serving` so that Ctrl+C exits
    130. --dirty: a rebuild renders only the pages an edit touches (`serve.rebuild`); --clean
    or --dirty given here wins."""
    chosen = {"--clean", "--dirty", "--dirtyreload"} & set(rest)
    dirty = [] if chosen else ["--dirty"]
    return [env.tool("python"), "-m", "jaxbook.cli.serving", *dirty, *rest]


def _build(root: Path, options: Options, rest: list[str], command: Parser) -> int:
    become([prepare(root).tool("mkdocs"), "build", "--strict", *rest], env=_records(options))
    return 0


def _records(options: Options) -> dict[str, str]:
    """--records DIR: the build reads a sharded run's records as its runs (BOOK_RECORDS)."""
    return {"BOOK_RECORDS": os.path.abspath(options.records)} if options.records else {}


def _update(root: Path, options: Options, rest: list[str], command: Parser) -> int:
    rest, only = _named(rest)
    env = prepare(root)
    if only and options.records:
        command.error("update --records writes the whole book's goldens: name no PAGE")
    if only:  # one page or block: its run alone, no page rendered (`cli.partial`)
        call([env.tool("python"), "-m", "jaxbook.cli.partial", only, *rest])
    else:
        environ = {"GOLDEN": "update", **_records(options)}
        call([env.tool("mkdocs"), "build", "--strict", *rest], env=environ)
    _show_changes(root)
    return 0


def _run(root: Path, options: Options, rest: list[str], command: Parser) -> int:
    if options.cache_key and options.block_cache:
        command.error("run --block-cache runs a shard: give --shard I/N, not --cache-key")
    prepare(root)
    with _engine_errors():
        from bookexec._internal.pipeline import records
        from bookexec._internal.plugin import make_extensions, make_runtime

        book = _book(root)
        plugin = book.config.plugins["executed-book"].config
        runtime = make_runtime(plugin.runtime)
        if options.cache_key:
            print(_cache_key(records.environment(book, runtime)))
            return 0
        shard, shards = options.shard
        # The folders the extensions keep are read-only to the blocks, as in a build.
        kept = [folder for ext in make_extensions(plugin.extensions) for folder in ext.read_only()]
        folder = Path(options.records).resolve() if options.records else book.cache.records
        written = records.run_shard(
            book, runtime, shard, shards, folder, reads_cache=options.block_cache, kept=kept
        )
        print(f"run: shard {shard}/{shards}: records in {written}")
    return 0


def _cache_key(environment: str) -> str:
    """The engine's environment key (`pipeline.records.environment`, the block cache's) as a CI
    cache key may hold it: its digest. The key itself ends with the runtime's name and
    preloaded modules, whose commas a cache key refuses."""
    return hashlib.sha256(environment.encode()).hexdigest()


def _show_changes(root: Path) -> None:
    """What an update changed, goldens and generated pages (git status): said where the book
    opens and git runs, and silent elsewhere (the update itself has said how it went)."""
    from bookexec._internal.errors import BookError

    with suppress(OSError, BookError):
        book = _book(root)
        folders = [book.relative(book.golden_dir), book.settings.docs]
        subprocess.run(["git", "status", "--short", "--", *folders], cwd=root, check=False)


# mkdocs build's options that take a value: the word after one is no PAGE.
_VALUED = {"-f", "--config-file", "-t", "--theme", "-d", "--site-dir"}


def _named(rest: list[str]) -> tuple[list[str], str]:
    """mkdocs build's options, and the PAGE[#BLOCK] among them ("" when none is named)."""
    for i, word in enumerate(rest):
        if not word.startswith("-") and (i == 0 or rest[i - 1] not in _VALUED):
            return rest[:i] + rest[i + 1 :], word
    return rest, ""


def _review(root: Path, options: Options, rest: list[str], command: Parser) -> int:
    prepare(root)
    with _engine_errors():
        from bookexec._internal.command import terminal

        # The book's golden folder (mkdocs.yml's `goldens`): a report naming another is refused.
        golden_dir = _book(root).golden_dir
        cosmetic, list_only = options.accept_cosmetic, options.list
        return terminal.walk(root, cosmetic=cosmetic, list_only=list_only, golden_dir=golden_dir)


def _jax_changes(root: Path, options: Options, rest: list[str], command: Parser) -> int:
    prepare(root)
    with _engine_errors():
        from jaxbook import jax_changes

        book = _book(root)
        pythons = list(options.python)
        if not options.page_only and not pythons:
            # Each older JAX lives in its own venv, on the same Python as the book's.
            pythons = [
                str(root / jax_venv(root, v) / "bin" / "python") for v in jax_changes.RELEASES
            ]
        if not options.page_only:
            for python in pythons:
                out = jax_changes.run_book(book, python, pages=options.chapter or None)
                print(f"jax-changes: recorded {len(list(out.rglob('*.txt')))} blocks in {out}")
        changed = jax_changes.write_page(book)
        page = book.relative(jax_changes.page_path(book))
        print(f"jax-changes: {'rewrote' if changed else 'unchanged:'} {page}")
    return 0


def _accelerators(root: Path, options: Options, rest: list[str], command: Parser) -> int:
    prepare(root)
    with _engine_errors():
        from jaxbook import backends

        if options.record:
            notebooks = sorted((root / "site").glob("*/*.ipynb"))
            if not notebooks:
                command.error("accelerators --record runs the built site's notebooks: ./book build")
            python = options.python or sys.executable
            script = root / "hooks" / "jaxbook" / "backend_run.py"
            out = root / backends.RECORDS / options.record
            run = [python, str(script), "--name", options.record, "--out", str(out)]
            if subprocess.run([*run, *map(str, notebooks)], cwd=root, check=False).returncode:
                print(f"accelerators: some notebooks failed; see {out}")
        book = _book(root)
        changed = backends.write_page(book)
        page = book.relative(book.docs_dir / backends.PAGE)
        print(f"accelerators: {'rewrote' if changed else 'unchanged:'} {page}")
    return 0


def _drift_watch(root: Path, options: Options, rest: list[str], command: Parser) -> int:
    if not options.jax:
        command.error("drift-watch needs --jax X.Y.Z (or --jax latest)")
    if options.jax != "latest" and not options.python:
        # Installed by name: a release, checked before anything is made. With --python the
        # interpreter is given, and --jax only names the run and its folder.
        _release(command, "drift-watch --jax", options.jax)
    env = prepare(root)
    jax = _newest_jax(env) if options.jax == "latest" else options.jax
    # Absolute: the builds run inside the scratch copy, where the checkout's folders are not.
    python = options.python or str(root / jax_venv(root, jax) / "bin" / "python")
    out = Path(options.out) if options.out else root / ".cache" / "drift-watch" / jax
    with _engine_errors():
        from jaxbook import drift_watch

        checked = str(drift_watch.interpreter(python))  # a missing one is said first
        result = drift_watch.watch(_book(root), checked, out.resolve(), keep=options.keep)
    print(
        f"drift-watch: jax {jax}: check exited {result['check_exit']}, update exited "
        f"{result['update_exit']}"
    )
    for line in result["summary"]:
        print(f"  {line}")
    if result.get("accelerator_records"):
        print(f"  {result['accelerator_records']}")
    print(f"  {len(result['changed_files'])} files would change; artifacts in {out}:")
    for name in ("versions.txt", "report.txt", "last-report.json", "update.txt", "golden.diff"):
        if (out / name).is_file():
            print(f"    {name}")
    return 0


def _newest_jax(env: Environment) -> str:
    index = subprocess.run(
        [env.tool("python"), "-m", "pip", "index", "versions", "jax"],
        capture_output=True,
        text=True,
        check=False,
    )
    for line in index.stdout.splitlines():
        if line.startswith("jax (") and line.endswith(")"):
            return line[len("jax (") : -1]
    raise Failed(1, f"book: pip index versions jax named no release: {index.stderr.strip()}")


def _jax_venv(root: Path, options: Options, rest: list[str], command: Parser) -> int:
    print(jax_venv(root, _release(command, "jax-venv", options.version)))
    return 0


def _test(root: Path, options: Options, rest: list[str], command: Parser) -> int:
    env = prepare(root, "test")
    if options.fast:  # the layers below e2e: no browser, no build of the whole book
        rest = [*FAST_LAYERS, *rest]
    if not _unit_only(root, rest):  # the unit layer alone needs no browser, and no lint
        if not options.fast:
            ensure_chromium(options.yes)
        call([env.tool("ruff"), "check", "."])
        call([env.tool("ruff"), "format", "--check", "."])
        call([env.tool("mypy")])  # hooks/, as configured in pyproject.toml: zero errors
        # The engine again, as Python 3.10 reads it (mypy's python_version is one for a run).
        call([env.tool("mypy"), "--python-version", "3.10", "hooks/bookexec"])
    # Five processes, one test file each at a time: module fixtures (prebuilt books) stay
    # shared. A test spends much of its time waiting (a build it started, a server, a browser),
    # so more processes than cores keep the cores busy, and on a machine that other work keeps
    # busy they hold their share of it: beside 2 busy loops a core, 3 took 41 minutes, 4 took 36.
    become([env.tool("python"), "-m", "pytest", "-n", "5", "--dist", "loadfile", *rest])
    return 0


def _test_engine(root: Path, options: Options, rest: list[str], command: Parser) -> int:
    # No set-up: it needs only pip from .venv (or beside this Python), never the book's
    # packages, so a stale .venv is not reinstalled under the suite that runs this.
    test_engine(root, Environment.of(root), options.pythons, rest)
    return 0


# What `./book test --fast` runs: every test file that needs neither a browser nor the book's
# own build, each a few seconds to a minute of CPU (tests/unit/test_layers.py keeps them so).
FAST_LAYERS = ("tests/unit", "tests/integration")


def _unit_only(root: Path, rest: list[str]) -> bool:
    """Whether pytest is given paths, each under tests/unit (a word that names no file, such
    as a -k expression, is not a path)."""
    paths = [w for w in rest if not w.startswith("-") and (root / w.split("::")[0]).exists()]
    return bool(paths) and all(Path(w.split("::")[0]).parts[:2] == ("tests", "unit") for w in paths)


def _bench(root: Path, options: Options, rest: list[str], command: Parser) -> int:
    env = prepare(root, "test")  # the serve benchmark drives Chromium through Playwright
    if rest[:1] == ["serve"]:
        become([env.tool("python"), "benchmarks/bench_serve.py", *rest[1:]])
    if rest[:1] == ["update"]:
        become([env.tool("python"), "benchmarks/bench_update.py", *rest[1:]])
    if rest[:1] == ["small"]:  # the engine on a small markdown-exec book, against markdown-exec
        become([env.tool("python"), "benchmarks/bench_small.py", *rest[1:]])
    if rest[:1] == ["transfer"]:  # what a reader's browser downloads for a page of site/
        become([env.tool("python"), "benchmarks/bench_transfer.py", *rest[1:]])
    if rest[:1] == ["shards"]:  # a generated book on one machine and as shards side by side
        become([env.tool("python"), "benchmarks/bench_shards.py", *rest[1:]])
    become([env.tool("python"), "benchmarks/bench_build.py", *rest])
    return 0


def _stress(root: Path, options: Options, rest: list[str], command: Parser) -> int:
    return stress(prepare(root), options.runs, options.profile)


def _setup(root: Path, options: Options, rest: list[str], command: Parser) -> int:
    set_up(root, "test" if options.test else "book")
    return 0


def _help(root: Path, options: Options, rest: list[str], command: Parser) -> int:
    top, commands = parser()
    (commands[options.topic] if options.topic else top).print_help()
    return 0


COMMANDS: dict[str, Callable[[Path, Options, list[str], Parser], int]] = {
    "serve": _serve,
    "build": _build,
    "update": _update,
    "run": _run,
    "review": _review,
    "jax-changes": _jax_changes,
    "accelerators": _accelerators,
    "drift-watch": _drift_watch,
    "test": _test,
    "test-engine": _test_engine,
    "bench": _bench,
    "stress": _stress,
    "setup": _setup,
    "jax-venv": _jax_venv,
    "help": _help,
}
