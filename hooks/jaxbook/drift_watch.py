"""`./book drift-watch --jax X.Y.Z`: what the next JAX upgrade would change, without touching
the checkout. The weekly workflow runs this same command, so a test of it tests the workflow.

The command (`jaxbook.cli`) first makes `.cache/jax-X.Y.Z/` (the book's packages with that JAX
in place of the pin) and passes its interpreter to `run`, which then:

1. copies the checkout (tracked and untracked files git does not ignore) into a scratch git
   repository;
2. runs the check build there under that JAX (`report.txt`, and `last-report.json` when the
   check fails);
3. runs the update there (`update.txt`), so `golden.diff` shows what the upgrade would commit;
4. writes `versions.txt` (both JAX versions and the interpreter's packages) and `summary.txt`.

Every artifact lands in `out` (`--out`, default `.cache/drift-watch/<jax>/`). The command exits 0
whatever the book did: a drift watch reports, it does not fail; it exits non-zero only when it
could not run.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bookexec import BookContext
from bookexec._internal.errors import BookError
from bookexec._internal.goldens.review import REPORT
from bookexec._internal.goldens.store import read_versions
from jaxbook import backends

_SKIP = {".git", ".venv", ".cache", "site", "__pycache__"}
_SUMMARY = re.compile(
    r"(golden (?:check|update): .*|bookexec summary: .*|goldens written under .*)"
)


def tracked_files(root: Path) -> list[Path]:
    """The files a fresh clone would have, plus untracked ones git does not ignore."""
    try:
        out = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=root,
            capture_output=True,
            check=True,
        ).stdout.decode()
        names = [name for name in out.split("\0") if name]
    except (OSError, subprocess.CalledProcessError):
        names = [
            str(p.relative_to(root))
            for p in root.rglob("*")
            if p.is_file() and not _SKIP & set(p.relative_to(root).parts)
        ]
    return [Path(name) for name in names if (root / name).is_file()]


def _git(scratch: Path, *args: str) -> str:
    ident = ["-c", "user.name=drift-watch", "-c", "user.email=drift-watch@localhost"]
    try:
        return subprocess.run(
            ["git", *ident, *args], cwd=scratch, capture_output=True, text=True, check=True
        ).stdout
    except OSError as error:
        raise BookError(f"drift-watch: cannot run git: {error.strerror}") from None
    except subprocess.CalledProcessError as error:
        said = error.stderr.strip() or f"exit {error.returncode}"
        raise BookError(f"drift-watch: git {args[0]} failed in {scratch}: {said}") from None


def scratch_copy(root: Path, scratch: Path) -> None:
    """A throwaway copy of the book, committed, so the update's golden diff is a git diff."""
    if scratch.exists():
        shutil.rmtree(scratch)
    for name in tracked_files(root):
        target = scratch / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(root / name, target)
    _git(scratch, "init", "-q")
    _git(scratch, "add", "-A")
    _git(scratch, "commit", "-q", "-m", "the book before the upgrade")


def _build(
    mkdocs: Path, scratch: Path, mode: str, log: Path, timeout: float, environ: Mapping[str, str]
) -> int:
    env = {**environ, "GOLDEN": mode, "BOOK_CACHE": "off", "NO_MKDOCS_2_WARNING": "1"}
    with open(log, "w", encoding="utf-8") as out:
        try:
            proc = subprocess.run(
                [str(mkdocs), "build", "--strict", "--site-dir", str(scratch / "site")],
                cwd=scratch,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                timeout=timeout,
            )
        except subprocess.TimeoutExpired:  # news about the book, like a failed build
            out.write(f"\ndrift-watch: the {mode} build did not end in {timeout:g} s: stopped\n")
            return 124  # timeout(1)'s code
    return proc.returncode


def interpreter(python: str) -> Path:
    """`python` as an absolute path, with the `mkdocs` beside it: the builds run inside the
    scratch copy, so a path relative to the checkout would name nothing there."""
    found = shutil.which(python)
    if found is None:
        raise BookError(f"drift-watch: {python}: no such interpreter")
    path = Path(found).absolute()
    if not (path.parent / "mkdocs").is_file():
        raise BookError(f"drift-watch: {path.parent} has no mkdocs: not the book's environment")
    return path


def _versions(python: str, golden_dir: Path) -> str:
    probe = (
        "import sys, importlib.metadata as m; "
        "print('running: jax', m.version('jax'), 'jaxlib', m.version('jaxlib'), "
        "'python', sys.version.split()[0])"
    )
    running = subprocess.run([python, "-c", probe], capture_output=True, text=True).stdout
    recorded = read_versions(golden_dir)
    freeze = subprocess.run(
        [python, "-m", "pip", "freeze", "--exclude-editable"], capture_output=True, text=True
    ).stdout
    goldens = recorded.describe() if recorded else "(no VERSIONS file)"
    return f"goldens: {goldens}\n{running}\npackages:\n{freeze}"


def _jax_of(python: str) -> str:
    probe = "import importlib.metadata as m; print(m.version('jax'))"
    said = subprocess.run([python, "-c", probe], capture_output=True, text=True)
    return said.stdout.strip() or "?"


def _summary_lines(*logs: Path) -> list[str]:
    found = []
    for log in logs:
        if log.is_file():
            for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
                match = _SUMMARY.search(line)
                if match:
                    found.append(f"{log.name}: {match[1]}")
    return found


def watch(
    book: BookContext, python: str, out: Path, keep: bool = False, timeout: float = 3600
) -> dict[str, Any]:
    """Do the whole watch of the opened `book`; return what happened, also written to
    `out/summary.json`. The builds run in the environment the book was opened in (the command
    line's), with the mode and no cache."""
    root, environ = book.root, book.settings.environ
    # The book's folders that an upgrade rewrites, as git names them in the scratch copy.
    rewritten = [book.relative(book.golden_dir), book.settings.docs]
    python = str(interpreter(python))
    mkdocs = Path(python).parent / "mkdocs"
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise BookError(f"drift-watch: cannot make {out}: {error.strerror}") from None
    scratch = out / "book"
    scratch_copy(root, scratch)
    (out / "versions.txt").write_text(_versions(python, scratch / rewritten[0]))
    check = _build(mkdocs, scratch, "check", out / "report.txt", timeout, environ)
    saved = scratch / REPORT
    if saved.is_file():
        shutil.copy(saved, out / "last-report.json")
    update = _build(mkdocs, scratch, "update", out / "update.txt", timeout, environ)
    diff = _git(scratch, "diff", "--", *rewritten)
    (out / "golden.diff").write_text(diff)
    # Names, not --stat: its column cuts a long path to ".../tail".
    names = _git(scratch, "diff", "--name-only", "--", *rewritten)
    result = {
        "check_exit": check,
        "update_exit": update,
        "changed_files": sorted(names.splitlines()),
        "summary": _summary_lines(out / "report.txt", out / "update.txt"),
        "scratch": str(scratch) if keep else None,
        "accelerator_records": backends.records_note(root, _jax_of(python)),
    }
    (out / "summary.json").write_text(json.dumps(result, indent=1) + "\n")
    if not keep:
        shutil.rmtree(scratch, ignore_errors=True)
    return result
