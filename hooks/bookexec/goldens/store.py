"""Golden files on disk: one plain-text file per block, its header saying which block wrote it.

A golden is written only by the update mode. Check mode compares the whole file, header and
body, with what the update mode would write now, so one changed character anywhere is drift.

The versions the goldens were written under live in one file, `tests/golden/VERSIONS`, not in
each golden: after an upgrade that leaves a block's output alone, its golden stays byte for
byte the same, and `git diff tests/golden` shows only the blocks whose output changed, plus
that one file.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from bookexec.errors import BookError
from bookexec.files import confined, read_regular, remove_confined, write_atomic
from bookexec.goldens import measured
from bookexec.goldens.measured import Claim, Fact

MODES = ("check", "update")
_SEPARATOR = "---\n"
_HEADER_KEYS = ("block", "snippet", "written-by")
VERSIONS_FILE = "VERSIONS"
_VERSIONS_HEAD = (
    "# Written by GOLDEN=update mkdocs build (never edit by hand): the versions every golden\n"
    "# in this folder was last written or checked under.\n"
)


@dataclass(frozen=True)
class Provenance:
    """What produced a set of outputs: the runtime's named versions and the backend.

    The names are the runtime's (`bookexec.execute.runtime.Runtime.versions`, e.g. python, or
    jax, jaxlib and python): the store records and compares them without knowing any.
    """

    versions: tuple[tuple[str, str], ...]  # (name, version), in the runtime's order
    backend: str
    devices: int = field(default=0, compare=False)  # 0: not known (VERSIONS does not say)

    @classmethod
    def of(cls, versions: Mapping[str, str], backend: str, devices: int = 0) -> Provenance:
        """From a runtime's versions, name -> version; an empty version is not recorded."""
        named = tuple((name, value) for name, value in versions.items() if value)
        return cls(named, backend, devices)

    def version(self, name: str) -> str:
        """The version recorded under this name, or "" when there is none."""
        return dict(self.versions).get(name, "")

    def text(self) -> str:
        """The VERSIONS file: one line a version, then the backend."""
        lines = [*self.versions, ("backend", self.backend)]
        return _VERSIONS_HEAD + "".join(f"{k}: {v}\n" for k, v in lines if v)

    def describe(self) -> str:
        """The versions in words, for the report: the first, then the others and the backend."""
        words = [f"{_label(name)} {value}" for name, value in self.versions]
        return f"{words[0]} ({', '.join([*words[1:], self.backend])})" if words else self.backend


def _label(name: str) -> str:
    """Python, the engine's own language, is named as people write it; a runtime's names as is."""
    return "Python" if name == "python" else name


def read_versions(golden_dir: Path) -> Provenance | None:
    """The versions a golden folder records, or None if it has no readable VERSIONS file."""
    data = read_regular(golden_dir / VERSIONS_FILE)
    if data is None:
        return None
    fields = dict(
        line.split(": ", 1)
        for line in data.decode("utf-8", errors="replace").splitlines()
        if ": " in line and not line.startswith("#")
    )
    if not all(key in fields for key in ("python", "backend")):
        return None
    backend = fields.pop("backend")
    return Provenance.of(fields, backend)


def write_versions(golden_dir: Path, prov: Provenance) -> bool:
    """Record the versions; True when the file changed."""
    path = golden_dir / VERSIONS_FILE
    text = prov.text()
    data = read_regular(confined(path, golden_dir))
    if data is not None and data.decode("utf-8", errors="replace") == text:
        return False
    write_atomic(path, text, inside=golden_dir)
    return True


def golden_path(golden_dir: Path, page: str, block_id: str) -> Path:
    """docs/tracers.md, block 'scalar-jaxpr' -> tests/golden/tracers/scalar-jaxpr.txt"""
    return golden_dir / PurePosixPath(page).with_suffix("") / f"{block_id}.txt"


def render(
    page: str,
    block_id: str,
    snippet: str,
    body: str,
    written_by: str = "GOLDEN=update mkdocs build (never edit by hand)",
    **fields: str,
) -> str:
    """A golden's text: its header (and any further `fields`, in order), then the body."""
    header = {"block": f"docs/{page}#{block_id}", "snippet": snippet, "written-by": written_by}
    header.update(fields)
    return "".join(f"{key}: {value}\n" for key, value in header.items()) + _SEPARATOR + body


@dataclass(frozen=True)
class Parsed:
    """A golden's parts: its header, the block's output, and the recorded values."""

    header: str
    output: str
    facts: list[Fact]
    claims: list[Claim]

    def header_fields(self) -> dict[str, str]:
        """The header's `key: value` lines."""
        pairs = (line.split(": ", 1) for line in self.header.splitlines() if ": " in line)
        return dict(pairs)

    def exact(self) -> str:
        """Everything that must match exactly: all but the measured values themselves."""
        return self.header + self.output + measured.masked(self.facts, self.claims)


def parse(text: str) -> Parsed:
    """A golden's text split into header, output, and its measured values and claims."""
    header, _, body = text.partition(_SEPARATOR)
    output, section = measured.split_body(body)
    facts, claims = measured.parse(section)
    return Parsed(header, output, facts, claims)


def read_golden(path: Path, inside: Path | None = None) -> tuple[str | None, str | None]:
    """A golden's text, or None if there is none; and what is wrong with it, in words.

    A damaged golden (not UTF-8, truncated, its header gone) is drift like any other: the
    report shows it with a readable diff, and the update mode rewrites it. A symlink (the
    golden, or a folder on the way from `inside`) is never read through: the diff would show
    whatever it points to, and the update mode refuses to write through it.
    """
    try:
        confined(path, inside if inside is not None else path.parent)
    except BookError as refused:
        return "", f"{refused}; it is not read"
    data = read_regular(path)
    if data is None:
        return None, None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        text = data.decode("utf-8", errors="replace")
        return text, (
            f"the golden is not valid UTF-8 (byte {error.start}); shown with U+FFFD in the "
            "diff; GOLDEN=update rewrites it"
        )
    header, separator, _ = text.partition(_SEPARATOR)
    keys = [line.split(": ", 1)[0] for line in header.splitlines()]
    if not separator or keys != list(_HEADER_KEYS):
        return text, (
            "the golden is damaged or truncated (its header is not the one the update mode "
            "writes); GOLDEN=update rewrites it"
        )
    return text, None


def remove_leftovers(golden_dir: Path) -> list[Path]:
    """Delete the temporary files of a write_atomic that was killed before its rename."""
    if not golden_dir.is_dir():
        return []
    leftovers = sorted(golden_dir.rglob(".*.*.tmp"))
    for path in leftovers:
        remove_confined(path, golden_dir)
    return leftovers


def existing_goldens(golden_dir: Path) -> set[Path]:
    """Every golden file under the folder (temporary files of a write excluded)."""
    if not golden_dir.is_dir():
        return set()
    return {path for path in golden_dir.rglob("*.txt") if not path.name.startswith(".")}


def relative(path: Path, root: Path) -> str:
    """The path as the reader knows it: relative to the book's root when it is inside."""
    try:
        return str(path.relative_to(root))
    except ValueError:
        return str(path)
