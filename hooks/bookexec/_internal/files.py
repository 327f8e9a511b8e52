"""Files the engine writes: atomically, so an interrupted write loses nothing; and where.

Goldens and records are written only inside their own folder (`confined`): a symlink on the
way, a path that leaves the folder, or something there that is not a regular file is refused
with an error naming it, so no report, golden or snippet can steer a write elsewhere. What a
page shows and runs is likewise only a file of the book (`not_of_the_book`).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import secrets
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from bookexec._internal.errors import BookError


def write_atomic(path: Path, text: str | bytes, inside: Path | None = None) -> None:
    """Write to a temporary file beside the target, then rename over it (`text` as UTF-8, or
    bytes as they are: a golden's image).

    The file gets the usual permissions (0666 less the umask, so 0644 by default), as any
    editor would give it; `inside`, when given, is the folder the write must stay in.
    """
    if inside is not None:
        confined(path, inside)
    path.parent.mkdir(parents=True, exist_ok=True)
    if inside is not None:
        confined(path, inside)  # mkdir made the folders: none of them may be a symlink now
    tmp = path.parent / f".{path.name}.{secrets.token_hex(4)}.tmp"
    # O_EXCL|O_NOFOLLOW: never write through a name someone else planted.
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(tmp, flags, 0o666)
    try:
        data = text.encode("utf-8") if isinstance(text, str) else text
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def confined(path: Path, inside: Path) -> Path:
    """`path`, checked to lie inside the folder `inside` with no symlink on the way.

    Every part from `inside` itself down to `path` that exists must be a real folder (the
    last one a regular file, if it exists); the lexical path must stay inside `inside`. A
    BookError names the first part that is not.
    """
    base = Path(os.path.abspath(inside))
    target = Path(os.path.abspath(path))
    try:
        parts = target.relative_to(base).parts
    except ValueError:
        raise BookError(f"refused: {path} is outside {inside}; nothing was written") from None
    if not parts or ".." in parts:
        raise BookError(f"refused: {path} is not a file inside {inside}; nothing was written")
    current = base
    for depth, part in enumerate(("", *parts)):
        current = current / part if part else current
        try:
            mode = os.lstat(current).st_mode
        except FileNotFoundError:
            break
        if stat.S_ISLNK(mode):
            raise BookError(
                f"refused: {current} is a symlink (to {os.readlink(current)}); goldens are "
                "written only as regular files in real folders: replace the link"
            )
        last = depth == len(parts)
        if last and not stat.S_ISREG(mode):
            raise BookError(f"refused: {current} is not a regular file; remove it")
        if not last and not stat.S_ISDIR(mode):
            raise BookError(f"refused: {current} is not a folder; remove it")
    if os.path.commonpath([os.path.realpath(base), os.path.realpath(target)]) != (
        os.path.realpath(base)
    ):
        raise BookError(f"refused: {path} resolves outside {inside}; nothing was written")
    return target


def not_of_the_book(path: Path, root: Path) -> str | None:
    """Why `path` is not a file of the book at `root`, in words, or None when it is one.

    A page shows and runs only the book's own files: a symlink on the way (the file, or a folder
    between the book's root and it) would publish whatever it points to, a private file of the
    machine included, and so would a path that leaves the book. A path that does not exist is
    left to the caller."""
    base = Path(os.path.abspath(root))
    target = Path(os.path.abspath(path))
    try:
        parts = target.relative_to(base).parts
    except ValueError:
        return f"{path} is outside the book ({root})"
    current = base
    for part in parts:
        current = current / part
        try:
            mode = os.lstat(current).st_mode
        except OSError:
            return None
        if stat.S_ISLNK(mode):
            shown = current.relative_to(base).as_posix()
            return f"{shown} is a symlink (to {os.readlink(current)})"
    real = os.path.realpath(base)
    if os.path.commonpath([real, os.path.realpath(target)]) != real:
        return f"{path} resolves outside the book ({root})"
    return None


def remove_confined(path: Path, inside: Path) -> None:
    """Delete one regular file inside `inside` (never a symlink, never elsewhere)."""
    confined(path, inside)
    path.unlink(missing_ok=True)


def read_regular(path: Path) -> bytes | None:
    """A regular file's bytes, never read through a symlink; None if there is none there."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except FileNotFoundError:
        return None
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            return None
        return handle.read()


@contextlib.contextmanager
def exclusive(lock: Path, what: str) -> Iterator[None]:
    """Hold the lock file `lock` while the body runs; a BookError at once if another process
    holds it (two updates at once would remove each other's temporary files)."""
    lock.parent.mkdir(parents=True, exist_ok=True)
    with open(lock, "a+") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "another process"
            raise BookError(
                f"{what}: {holder} is writing the goldens right now ({lock}); wait for it to "
                "end, then run again. Nothing was written"
            ) from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"process {os.getpid()}")
        handle.flush()
        try:
            yield
        finally:
            handle.truncate(0)
            fcntl.flock(handle, fcntl.LOCK_UN)


def killed_holder(lock: Path) -> str | None:
    """Who held the lock file `lock` and was killed holding it ("process N"): `exclusive`
    empties the file as its holder ends, however it ends but SIGKILL or a crash. None when the
    file is empty, missing, or held right now."""
    try:
        handle = open(lock)  # noqa: SIM115 (closed below, after the flock test)
    except OSError:
        return None
    with handle:
        holder = handle.read().strip()
        if not holder:
            return None
        try:
            fcntl.flock(handle, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return None  # its holder is alive, writing
        fcntl.flock(handle, fcntl.LOCK_UN)
        return holder


def _under(name: str, doc: str) -> property:
    return property(lambda self: self.base / name, doc=doc)


@dataclass(frozen=True)
class CachePaths:
    """Every path under `.cache/bookexec/` (git-ignored), from the book's root: one home."""

    root: Path

    @property
    def base(self) -> Path:
        """The folder holding everything below."""
        return self.root / ".cache" / "bookexec"

    blocks = _under("blocks", "The author's block cache (`execute.cache`).")
    run_times = _under("run-times.json", "Each block's last run time (`execute.eta`).")
    labs = _under("labs", "The executed copies of the labs that mkdocs-jupyter renders.")
    lab_html = _under("lab-html", "Rendered lab HTML, reused while a lab is unchanged.")
    report = _under("last-report.json", "The report a failed check leaves for `./book review`.")
    claims = _under("claims.json", "Each claim's values in the last build that ran blocks.")
    last_build = _under("last-build", "The id of the last build that ran blocks here.")
    review_images = _under(
        "review-images.html", "The report's changed images, each golden's beside this build's."
    )
    update_lock = _under("update.lock", "Held while an update or a review writes goldens.")
    records = _under("records", "A sharded run's records (`pipeline.records`), by default.")
    serve = _under("serve", "Folders `mkdocs serve` watches, touched to ask for a rebuild.")
