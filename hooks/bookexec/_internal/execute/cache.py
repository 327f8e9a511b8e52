"""The author's cache of block outputs: unchanged blocks are not run again.

A block's key covers everything that can change what it prints:
- its code, which is the text of its snippet and of every file that snippet includes;
- its options (`raises`, `timeout`, `band`, ...);
- for a block in the page's session, the code and options of every earlier block, since the
  session's state is what they left behind (a `fresh` block runs alone, so only its own);
- the Python build, and each installed distribution a block can import (the closure of the
  book's own requirements, not the test tools) with its version, and where they live;
- the environment a snippet can see (`privacy.worker_environment`: `JAX_*`, `XLA_*`,
  `PYTHON*`, `HOME`, locale, `BOOK_SNIPPET_*`, ...) but `PATH`, which launchers prepend to,
  and the build's settings that can change an output (limits, hash seed: `Settings.key`),
  whether `mkdocs.yml` or a `BOOK_*` variable sets them;
- the checkout's path, because raw outputs still hold absolute paths until normalised;
- the source of the executor itself.

The code a block imports is known only once it ran, so it is checked, not keyed: each entry
records, for every top-level module outside the standard library loaded when its block ended
(its page's imports and its own: JAX, NumPy, an editable install of the author's own
package...), the module's files or folders and a fingerprint of every file under them (path,
size, modification time: `InstalledCode`), and an entry whose fingerprints no longer match is
a miss. So an edited editable install, or a package reinstalled at the same version, runs the
blocks that imported it again. The fingerprints hold the code's files alone, nothing of how
the build was launched. Files a snippet opens while it runs are not in the key. A sharded
run's fingerprints hold each file's bytes instead (`InstalledCode(content=True)`): its
entries are read on other machines, whose installs wrote the same files at other times.

The cache is for authors: CI's build, the update mode and `BOOK_CACHE=off` never read it (the
update stores what it ran, unless the cache is off). A cache that cannot be read is only a
cache miss: the block runs again and a warning says why; it never fails a build.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import sys
import threading
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from importlib.metadata import Distribution, distributions, packages_distributions
from pathlib import Path
from typing import Any, TypeVar

from bookexec._internal.discover.blocks import Block
from bookexec._internal.escapes import UNSAFE
from bookexec._internal.execute.model import BlockRun
from bookexec._internal.execute.progress import outside_mkdocs
from bookexec._internal.files import write_atomic
from bookexec._internal.goldens.measured import Claim, Fact
from bookexec._internal.privacy import worker_environment
from bookexec.facts import OPS

SCHEMA = 4  # 3: entries record the device count; 4: and the installed code they ran with
KEEP = 4  # entries per block
# A block's entry, as JSON holds it: its output, seconds, backend, devices, facts and claims.
Entry = dict[str, Any]
# What a snippet sees that changes how it runs, never what it prints. PATH only decides which
# program a name finds, and launchers prepend to it (pyenv's shim, an activated venv): keyed,
# two launches of the same book on the same machine would share no entry (issue 55).
_ENV_IGNORED = {"PATH", "PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE"}
# The engine's files, from the package `bookexec`.
_EXECUTOR_SOURCES = (
    "_internal/execute/worker.py",
    "_internal/discover/hidden.py",  # how a block's lines are numbered as it runs
    "_internal/execute/launch.py",  # the limits a worker runs under
    "_internal/execute/reaper.py",
    "_internal/execute/runner.py",
    "_internal/execute/handle.py",  # how a block is sent, and its limits set
    "_internal/execute/limits.py",
    "_internal/execute/outcome.py",  # what a result means: a failure, a declared error
    "_internal/execute/model.py",
    "_internal/execute/protocol.py",
    "facts.py",
    "_internal/goldens/measured.py",
    "_internal/execute/cache.py",
    "_internal/privacy.py",
)


def fingerprint(
    environ: dict[str, str],
    python: str,
    packages: list[str],
    prefix: str,
    root: str,
    executor: bytes,
    settings: str = "",
) -> str:
    """Everything outside the page that can change an output, as one digest."""
    digest = hashlib.sha256()
    # What a snippet can see of the environment. The book's own BOOK_* variables are not: those
    # that change an output (limits, hash seed) are in `settings` however they are set, and
    # the others (BOOK_SERVE_WAIT, BOOK_JOBS...) only change how the build runs.
    seen = worker_environment(environ)
    relevant = sorted((name, value) for name, value in seen.items() if name not in _ENV_IGNORED)
    for part in (python, prefix, root, json.dumps(sorted(packages)), json.dumps(relevant)):
        digest.update(part.encode() + b"\0")
    digest.update(executor)
    digest.update(b"\0" + settings.encode())
    return digest.hexdigest()


@cache
def _packages_seen() -> tuple[str, ...]:
    """`packages_seen`, read once a process: a process does not install while it builds."""
    return packages_seen()


def packages_seen() -> tuple[str, ...]:
    """What a block can import, as name==version, sorted: the installed closure of the
    requirements of the distribution that holds the engine and of each one that requires it
    (a book's own, with the engine's extras it asks for, such as `jax`; without its own
    extras: the test tools are not in it). Where the engine is not installed as a
    distribution, every installed one."""
    installed: dict[str, list[Distribution]] = {}
    owners = []
    for dist in distributions():
        name = dist.metadata["Name"] if dist.metadata else None
        if name:
            installed.setdefault(_canonical(name), []).append(dist)
            if "bookexec" in (dist.read_text("top_level.txt") or "").split():
                owners.append(name)
    # The engine's distribution declares its top-level package; inferring every other one's
    # from its files (`packages_distributions`) reads every installed file: seconds before
    # the first page of `./book serve`. Only an install that declares none needs it.
    owners = owners or packages_distributions().get("bookexec", [])
    if not owners:
        found = {f"{name}=={d.version}" for name, dists in installed.items() for d in dists}
        return tuple(sorted(found))
    engine = {_canonical(name) for name in owners}
    todo: list[tuple[str, frozenset[str]]] = [(name, frozenset()) for name in sorted(engine)]
    todo += [
        (name, frozenset())
        for name, dists in installed.items()
        for dist in dists
        if any(_requirement(r)[0] in engine for r in dist.requires or [] if not _extra(r))
    ]
    seen: set[tuple[str, frozenset[str]]] = set()
    found = set()
    while todo:
        name, extras = todo.pop()
        if (name, extras) in seen:
            continue
        seen.add((name, extras))
        for dist in installed.get(name, []):  # a requirement not installed cannot be imported
            found.add(f"{name}=={dist.version}")
            for requirement in dist.requires or []:
                # An extra's requirements count only when asked for: a book's tools are not
                # the runtime's, the engine's `jax` is when the book asks for it.
                if _extra(requirement) in {"", *extras}:
                    todo.append(_requirement(requirement))
    return tuple(sorted(found))


_EXTRA = re.compile(r"""extra\s*==\s*["']([^"']+)["']""")


def _extra(requirement: str) -> str:
    """The extra a requirement's marker is for, or ''."""
    found = _EXTRA.search(requirement.partition(";")[2])
    return _canonical(found[1]) if found else ""


def _requirement(requirement: str) -> tuple[str, frozenset[str]]:
    """A requirement's distribution and the extras it asks for."""
    name = _canonical(_NAME.match(requirement)[0])  # type: ignore[index]
    extras = re.match(r"[^\[;]*\[([^\]]*)\]", requirement)
    asked = (
        frozenset(_canonical(e.strip()) for e in extras[1].split(",")) if extras else frozenset()
    )
    return name, asked


_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


def _canonical(name: str) -> str:
    """A distribution's name as pip compares them: case, `-`, `_` and `.` alike."""
    return re.sub(r"[-_.]+", "-", name).lower()


def environment_key(root: Path, environ: Mapping[str, str], settings: str = "") -> str:
    """What every block's output may depend on outside its code; `settings` are the build's
    own that can change an output (`Settings.key`: limits, hash seed)."""
    here = Path(__file__).resolve().parents[2]  # hooks/bookexec
    executor = b"".join((here / name).read_bytes() for name in _EXECUTOR_SOURCES)
    return fingerprint(
        dict(environ),
        sys.version,
        list(_packages_seen()),
        sys.prefix,
        str(root.resolve()),
        executor,
        settings,
    )


def _block_part(block: Block) -> bytes:
    options = sorted(block.options.items())
    return json.dumps([block.id, block.snippet, block.code, options]).encode()


def block_keys(blocks: list[Block], env_key: str, is_fresh: Callable[[Block], bool]) -> list[str]:
    """One key per block: the environment, and the session up to and including the block."""
    keys = []
    session = hashlib.sha256(env_key.encode())
    for block in blocks:
        if is_fresh(block):
            alone = hashlib.sha256(env_key.encode() + b"\0fresh\0" + _block_part(block))
            keys.append(alone.hexdigest()[:40])
            continue
        session.update(_block_part(block) + b"\0")
        keys.append(session.copy().hexdigest()[:40])
    return keys


# A block's installed code as an entry and a `BlockRun` hold it: [module, paths, fingerprint].
Installed = list[list[Any]]


# The start of a fingerprint made of the files' bytes: the kind of a recorded one says how to
# check it, so a build reads the entries of a sharded run, and a sharded run a build's.
CONTENT = "content:"


class InstalledCode:
    """Fingerprints of the code blocks imported (`protocol.BlockResult.imported`), each folder
    or file walked once a build (`forget` starts the next build's), about 60 ms for JAX and
    NumPy together: the path, size and modification time of every file under it but
    `__pycache__`, so that any edit, reinstall or removal changes it. With `content`, the
    path and bytes of every file (half a second for JAX and NumPy): the same files installed at
    another time, on another machine, are the same code."""

    def __init__(self, content: bool = False) -> None:
        self.content = content
        self._digests: dict[tuple[object, ...], str] = {}
        self._lock = threading.Lock()

    def forget(self) -> None:
        """A new build: the files are read again when next asked for."""
        with self._lock:
            self._digests = {}

    def digest(self, paths: Sequence[str], content: bool | None = None) -> str:
        """The fingerprint of these files and folders, as they are now in this build; of
        their bytes with `content` (by default, the kind this one records)."""
        content = self.content if content is None else content
        where = (content, *paths)
        with self._lock:
            known = self._digests.get(where)
        if known is None:
            found = _fingerprint_files(tuple(paths), content)
            known = CONTENT + found if content else found
            with self._lock:
                self._digests[where] = known
        return known

    def record(self, imported: Mapping[str, list[str]]) -> Installed:
        """A block's imported modules with their fingerprints, sorted by module."""
        return [[name, list(paths), self.digest(paths)] for name, paths in sorted(imported.items())]

    def unchanged(self, installed: Installed) -> bool:
        """Whether every module a run recorded is still the code it ran with."""
        return all(
            self.digest(paths, digest.startswith(CONTENT)) == digest
            for _, paths, digest in installed
        )


def _fingerprint_files(paths: Sequence[str], content: bool = False) -> str:
    digest = hashlib.sha256()
    for top in paths:
        digest.update(top.encode(errors="surrogateescape") + b"\0")
        files = [top] if not os.path.isdir(top) else []
        for folder, folders, names in os.walk(top):
            folders[:] = sorted(f for f in folders if f != "__pycache__")
            files += [os.path.join(folder, name) for name in sorted(names)]
        for path in files:
            try:
                found = os.stat(path)
                seen = _bytes_digest(path) if content else f"{found.st_size} {found.st_mtime_ns}"
            except OSError:
                seen = "missing"
            digest.update(f"{path}\0{seen}\n".encode(errors="surrogateescape"))
    return digest.hexdigest()


def _bytes_digest(path: str) -> str:
    digest = hashlib.sha256()  # not hashlib.file_digest: the engine runs on Python 3.10
    with open(path, "rb") as file:
        while chunk := file.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


class BlockCache:
    """One JSON file per block and key in a git-ignored folder; the newest few are kept."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.warnings = 0

    def _stem(self, block: Block) -> str:
        return f"{block.page.replace('/', '__')}__{block.id}"

    def _path(self, block: Block, key: str) -> Path:
        return self.folder / f"{self._stem(block)}.{key}.json"

    def load(self, block: Block, key: str) -> Entry | None:
        """A block's cached entry under this key, or None (a miss, or unreadable)."""
        path = self._path(block, key)
        if not path.exists():
            return None
        try:
            entry: Entry = json.loads(path.read_text(encoding="utf-8"))
            _check_entry(entry, block)
            path.touch()  # recently used: kept longest
            return entry
        except (OSError, ValueError, TypeError, KeyError, RecursionError, OverflowError) as error:
            # Any content, however large or deep: json.loads of a deep nesting is a
            # RecursionError, and a huge number an OverflowError only once it is used.
            said = _clipped(str(error) or type(error).__name__)
            self._warn(f"{path.name} is unreadable ({said}); running {block.where} again")
            return None

    def save(self, block: Block, key: str, entry: Entry) -> None:
        """Store a block's entry under this key; a failure only warns."""
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            self._prune(block)
            record = {"schema": SCHEMA, "page": block.page, "block": block.id, **entry}
            write_atomic(self._path(block, key), json.dumps(record, ensure_ascii=False))
        except OSError as error:
            self._warn(f"could not save {block.where} to {self.folder}: {error}")

    def _prune(self, block: Block) -> None:
        """Keep the newest few keys of each block, so undoing an edit is still a hit."""
        entries = sorted(
            self.folder.glob(f"{self._stem(block)}.*.json"), key=lambda p: p.stat().st_mtime
        )
        for old in entries[: max(0, len(entries) - (KEEP - 1))]:
            old.unlink(missing_ok=True)

    def _warn(self, message: str) -> None:
        self.warnings += 1
        outside_mkdocs(
            "bookexec._internal.execute.cache", "WARNING -  bookexec cache: %(message)s"
        ).warning(message)


def _check_entry(entry: object, block: Block) -> None:
    """Every field of an entry, checked before any is used: a ValueError says the first that
    is wrong (of another type, null, missing, or a field no entry has)."""
    if not isinstance(entry, dict) or entry.get("schema") != SCHEMA:
        raise ValueError("not an entry of this cache's schema")
    _fields(entry, "the entry", _ENTRY_FIELDS)
    if entry["page"] != block.page or entry["block"] != block.id:
        raise ValueError("the entry belongs to another block")
    for name in ("output", "backend"):
        _kind(entry[name], str, name)
    if not plain_line(entry["backend"]) or len(entry["backend"]) > 100:
        raise ValueError(f"backend must be a backend's name, not {_clipped(entry['backend'])}")
    if not _finite(entry["seconds"]) or entry["seconds"] < 0:
        raise ValueError(f"seconds must be a number of seconds, not {_clipped(entry['seconds'])}")
    devices = entry["devices"]
    if isinstance(devices, bool) or not isinstance(devices, int) or not 0 <= devices < 2**31:
        raise ValueError(f"devices must be a count, not {_clipped(devices)}")
    for fact in _kind(entry["facts"], list, "facts"):
        _check_fact(_fields(fact, "a fact", _FACT_FIELDS))
    for claim in _kind(entry["claims"], list, "claims"):
        _check_claim(_fields(claim, "a claim", _CLAIM_FIELDS, frozenset({"says"})))
    for module in _kind(entry["installed"], list, "installed"):
        _check_installed(module)


def _check_installed(module: object) -> None:
    """[module, its files or folders, their fingerprint], every part text."""
    match module:
        case [str(), list(paths), str()] if all(isinstance(path, str) for path in paths):
            return
    raise ValueError(f"an installed module must be [name, [paths], fingerprint]: {module!r:.200}")


_ENTRY_FIELDS = frozenset(
    {
        *("schema", "page", "block", "output", "seconds", "backend", "devices"),
        *("facts", "claims", "installed"),
    }
)
_FACT_FIELDS = frozenset({"name", "kind", "value", "band"})
_CLAIM_FIELDS = frozenset({"left", "op", "right", "says"})
_FACT_KINDS = ("exact", "timing", "ratio")


def _number(value: object) -> bool:
    """An int or a float that is a number (JSON's true is not one, nor NaN)."""
    return isinstance(value, int | float) and not isinstance(value, bool) and value == value


def _finite(value: object) -> bool:
    """A number the build can compute with: a float's range (JSON's `10**400` is an int that
    no float holds), and not infinite."""
    if not _number(value):
        return False
    try:
        return math.isfinite(float(value))  # type: ignore[arg-type]
    except OverflowError:
        return False


def _clipped(value: object) -> str:
    """A field as a warning shows it: a damaged entry's text may be any size."""
    text = value if isinstance(value, str) else repr(value) if _small(value) else "a huge value"
    return text if len(text) <= 80 else text[:77] + "..."


def _small(value: object) -> bool:
    """Whether `repr(value)` is cheap and cannot fail (an int of thousands of digits can)."""
    return not isinstance(value, int | list | dict) or (
        isinstance(value, int) and abs(value) < 10**100
    )


# A TypeVar, not `def f[T]`: the engine runs on Python 3.10 (PEP 695 is 3.12's).
Kind = TypeVar("Kind")


def _kind(value: object, kind: type[Kind], name: str) -> Kind:
    if not isinstance(value, kind):
        raise ValueError(f"{name} must be {kind.__name__}, not {_clipped(value)}")
    return value


def _fields(
    record: object, what: str, names: frozenset[str], optional: frozenset[str] = frozenset()
) -> dict[str, Any]:
    """`record` as a dict with exactly these keys (those in `optional` may be missing)."""
    if not isinstance(record, dict):
        raise ValueError(f"{what} must be a mapping, not {_clipped(record)}")
    if missing := sorted(names - set(optional) - record.keys()):
        raise ValueError(f"{what} has no {', '.join(missing)}")
    if extra := sorted(map(_clipped, record.keys() - names)):
        raise ValueError(f"{what} has fields no entry has: {', '.join(extra)}")
    return record


def _check_fact(fact: dict[str, Any]) -> None:
    """A fact as `bookexec.facts.record` would have recorded it: the same names, kinds and
    ranges, so nothing read back can break a golden's line or the page's formatting."""
    _name(fact["name"], "a fact's name")
    if fact["kind"] not in _FACT_KINDS:
        kind = _clipped(fact["kind"])
        raise ValueError(f"a fact's kind must be one of {_FACT_KINDS}, not {kind}")
    value, band = fact["value"], fact["band"]
    if fact["kind"] == "exact":
        text = isinstance(value, str) and plain_line(value)
        if not (text or (isinstance(value, int) and _finite(value))) or band is not None:
            raise ValueError("an exact fact holds a number or one line of text and no band")
    elif not _finite(value) or value <= 0 or not _finite(band) or band <= 0:
        raise ValueError("a measured fact holds a positive number and its band")


def _check_claim(claim: dict[str, Any]) -> None:
    _name(claim["left"], "a claim's left side")
    if claim["op"] not in OPS:
        raise ValueError(f"a claim's operator must be one of {OPS}, not {_clipped(claim['op'])}")
    right = claim["right"]
    if not (_finite(right) or (isinstance(right, str) and _NAME_ONLY.fullmatch(right))):
        raise ValueError("a claim's right side must be a fact's name or a number")
    says = _kind(claim.get("says", ""), str, "a claim's sentence")
    if not plain_line(says):
        raise ValueError("a claim's sentence must be one line of plain text")


def plain_line(text: str) -> bool:
    """One line a golden can hold, as `bookexec.facts` requires of a recorded text."""
    return "\n" not in text and UNSAFE.search(text) is None


_NAME_ONLY = re.compile(r"\w+")  # a fact's name, as a golden's line reads it back


def _name(value: object, what: str) -> None:
    if not isinstance(value, str) or not _NAME_ONLY.fullmatch(value):
        raise ValueError(f"{what} must be a fact's name, not {_clipped(value)}")


def cache_entry(run: BlockRun, backend: str, devices: int) -> dict[str, Any]:
    """A block's run as the block cache stores it."""
    return {
        "output": run.output,
        "seconds": run.seconds,
        "backend": backend,
        "devices": devices,
        "facts": [vars(fact) for fact in run.facts],
        "claims": [vars(claim) for claim in run.claims],
        "installed": run.installed,
    }


def from_cache_entry(block: Block, entry: dict[str, Any]) -> BlockRun:
    """A block's run from its cache entry."""
    return BlockRun(
        block=block,
        output=entry["output"],
        seconds=float(entry["seconds"]),
        facts=[Fact(**fact) for fact in entry["facts"]],
        claims=[Claim(**claim) for claim in entry["claims"]],
        installed=entry["installed"],
        cached=True,
    )
