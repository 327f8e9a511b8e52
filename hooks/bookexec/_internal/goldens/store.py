r"""Golden files on disk: one plain-text file per block, its header saying which block wrote it.

A golden is written only by the update mode. Check mode compares the whole file, header and
body, with what the update mode would write now, so one changed character anywhere is drift;
but for the header's `written-by` value, a note to a person naming the command that writes
goldens in this book (`written_by`): goldens an update wrote under other words still hold, and
each golden an update writes again takes the words of today's.

The versions the goldens were written under live in one file, `VERSIONS` in the golden
folder (the plugin's `goldens` option), not in each golden: after an upgrade that leaves a
block's output alone, its golden stays byte for byte the same, and `git diff` of the folder
shows only the blocks whose output changed, plus that one file.

The body is unambiguous: whatever a block prints, no line of it can be read as the golden's
own structure, and the file stays text to git. A body line is the output's line as printed
unless it starts with a backslash; an output line that would be ambiguous (it starts with a
backslash, is `---` or looks like a section line such as `--- facts ---`), that holds a
character git, a terminal or a reader would not take as plain text
(`bookexec._internal.escapes.UNSAFE`: NUL and the other controls but tab, bidirectional controls),
that ends in a space or a tab, that is one of the output's final blank lines (an editor or a hook
would trim either from the file), or that is the output's last and has no newline, is stored as a
backslash and the line in escapes: `\\` for a backslash, `\n` for its newline (so a line without one
has none), `\xHH`, `\uHHHH` or `\UHHHHHHHH` for the others. Reading undoes it exactly
(`encode_output`, `decode_output`), and goldens of
outputs that hold none of these are written byte for byte as before.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from bookexec._internal.errors import BookError
from bookexec._internal.escapes import UNSAFE
from bookexec._internal.escapes import escape as escape_char
from bookexec._internal.files import confined, read_regular, remove_confined, write_atomic
from bookexec._internal.goldens import measured
from bookexec._internal.goldens.measured import Claim, Fact

MODES = ("check", "update")


BUILDERS = ("mkdocs", "properdocs")  # the command lines that build a book without a launcher


def update_command(launcher: str, where: str = "") -> str:
    """What an author runs to write goldens (`where`: one page or block's, PAGE[#BLOCK]): the
    book's launcher's command where it has one (`./book update`), else the builder's own
    form; `launcher` is the launcher, or the builder (`BUILDERS`, mkdocs when empty)."""
    if launcher and launcher not in BUILDERS:
        return f"{launcher} update {where}".rstrip()
    only = f" GOLDEN_ONLY={where}" if where else ""
    return f"GOLDEN=update{only} {launcher or BUILDERS[0]} build --strict"


_SEPARATOR = "---\n"
_HEADER_KEYS = ("block", "snippet", "written-by")
VERSIONS_FILE = "VERSIONS"
# What an escaped body line may hold: plain characters and the escapes `encode_output` writes.
_ESCAPED = re.compile(r"(?:[^\\\n]|\\(?:\\|n|x[0-9a-f]{2}|u[0-9a-f]{4}|U[0-9a-f]{8}))*")
_ESCAPE = re.compile(r"\\(?:(\\)|(n)|x([0-9a-f]{2})|u([0-9a-f]{4})|U([0-9a-f]{8}))")
_VERSIONS_HEAD = (
    "# Written by {writer}: the versions every golden\n"
    "# in this folder was last written or checked under.\n"
)


@dataclass(frozen=True)
class Provenance:
    """What produced a set of outputs: the runtime's named versions and the backend.

    The names are the runtime's (`bookexec._internal.execute.runtime.Runtime.versions`, e.g. python,
    or jax, jaxlib and python): the store records and compares them without knowing any.
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

    def text(self, writer: str = "") -> str:
        """The VERSIONS file: one line a version, then the backend; its header names `writer`
        (`written_by`: the command that writes it, the book's update command by default)."""
        lines = [*self.versions, ("backend", self.backend)]
        head = _VERSIONS_HEAD.format(writer=writer or written_by())
        return head + "".join(f"{k}: {v}\n" for k, v in lines if v)

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


def write_versions(golden_dir: Path, prov: Provenance, writer: str = "") -> bool:
    """Record the versions, under a header naming `writer`, the command that writes them
    (`written_by`'s words by default); True when the file changed."""
    path = golden_dir / VERSIONS_FILE
    text = prov.text(writer)
    data = read_regular(confined(path, golden_dir))
    if data is not None and data.decode("utf-8", errors="replace") == text:
        return False
    write_atomic(path, text, inside=golden_dir)
    return True


def golden_path(golden_dir: Path, page: str, block_id: str) -> Path:
    """docs/tracers.md, block 'scalar-jaxpr' -> <golden_dir>/tracers/scalar-jaxpr.txt"""
    return golden_dir / PurePosixPath(page).with_suffix("") / f"{block_id}.txt"


def written_by(launcher: str = "") -> str:
    """The header's `written-by` value: the book's own update command (`update_command`)."""
    return f"{update_command(launcher)} (never edit by hand)"


def render(
    page: str,
    block_id: str,
    snippet: str,
    body: str,
    written_by: str = written_by(),
    docs: str = "docs",
    **fields: str,
) -> str:
    """A golden's text: its header (and any further `fields`, in order), then the body; the
    header names the page under `docs`, the book's docs_dir as messages name it."""
    header = {"block": f"{docs}/{page}#{block_id}", "snippet": snippet, "written-by": written_by}
    header.update(fields)
    return "".join(f"{key}: {value}\n" for key, value in header.items()) + _SEPARATOR + body


def _ambiguous(line: str) -> bool:
    """Whether an output line, as is, could be read as the golden's structure or as binary, or
    lose its trailing spaces to an editor."""
    if line.startswith("\\") or line == "---" or line.endswith((" ", "\t")):
        return True
    return (line.startswith("--- ") and line.endswith(" ---")) or UNSAFE.search(line) is not None


def _escape_line(chunk: str) -> str:
    def one(found: re.Match[str]) -> str:
        char = found[0]
        return "\\\\" if char == "\\" else "\\n" if char == "\n" else escape_char(char)

    return "\\" + re.sub(r"[\\\n]|" + UNSAFE.pattern, one, chunk) + "\n"


def encode_output(output: str) -> str:
    """A block's output as a golden's body stores it: each line as printed, or escaped."""
    stored = []
    chunks = _lines(output)
    # The output's final blank lines, which an editor or a hook would trim from the file.
    blank = (
        len(chunks) - len(output.rstrip("\n").split("\n")) if output.rstrip("\n") else len(chunks)
    )
    for number, chunk in enumerate(chunks):
        line = chunk.removesuffix("\n")
        final_blank = number >= len(chunks) - blank
        plain = chunk.endswith("\n") and not _ambiguous(line) and not final_blank
        stored.append(chunk if plain else _escape_line(chunk))
    return "".join(stored)


def _lines(text: str) -> list[str]:
    """`text` cut after each newline alone (str.splitlines also cuts at other controls)."""
    return re.findall(r"[^\n]*\n|[^\n]+$", text)


def decode_output(stored: str) -> tuple[str, int | None]:
    """The output a golden's body stores, and the first escaped line (1-based, in the body)
    that is damaged (an unknown escape), or None. A damaged line is read as it stands."""
    out, damaged = [], None
    for number, line in enumerate(_lines(stored), start=1):
        if not line.startswith("\\"):
            out.append(line)
            continue
        inner = line[1:].removesuffix("\n")
        try:
            if not _ESCAPED.fullmatch(inner):
                raise ValueError(inner)
            out.append(_ESCAPE.sub(_unescape, inner))
        except ValueError:
            damaged = damaged or number
            out.append(line)
    return "".join(out), damaged


def _unescape(found: re.Match[str]) -> str:
    if found[1]:
        return "\\"
    if found[2]:
        return "\n"
    return chr(int(found[3] or found[4] or found[5], 16))  # ValueError past U+10FFFF


def body(output: str, facts: list[Fact], claims: list[Claim]) -> str:
    """A golden's body: the output as stored (measured digits masked, `measured.mask`), then
    the recorded values' section."""
    return encode_output(measured.mask(output)) + measured.render(facts, claims)


@dataclass(frozen=True)
class Parsed:
    """A golden's parts: its header, the block's output, and the recorded values."""

    header: str
    output: str
    facts: list[Fact]
    claims: list[Claim]
    stored: str = ""  # the output as the golden stores it, escapes and all
    damaged: int | None = None  # the file's first line that is a damaged escaped line

    def header_fields(self) -> dict[str, str]:
        """The header's `key: value` lines."""
        pairs = (line.split(": ", 1) for line in self.header.splitlines() if ": " in line)
        return dict(pairs)

    def exact(self) -> str:
        """Everything that must match exactly: all but the measured values themselves and the
        words of `written-by` (which command wrote it is no part of the output)."""
        header = re.sub(r"^written-by: .*$", "written-by:", self.header, flags=re.M)
        return header + self.stored + measured.masked(self.facts, self.claims)


def _split(text: str) -> tuple[str, str, str]:
    """Header, stored output and facts section: the header ends at the first `---` line, the
    output at the first `--- facts ---` line (no stored output line is either)."""
    lines = _lines(text)
    cut = next((i for i, line in enumerate(lines) if line == _SEPARATOR), None)
    if cut is None:
        return text, "", ""
    header, rest = "".join(lines[: cut + 1]), lines[cut + 1 :]
    cut = next((i for i, line in enumerate(rest) if line == measured.SECTION), len(rest))
    return header, "".join(rest[:cut]), "".join(rest[cut + 1 :])


def parse(text: str) -> Parsed:
    """A golden's text split into header, output, and its measured values and claims."""
    header, stored, section = _split(text)
    output, damaged = decode_output(stored)
    facts, claims = measured.parse(section)
    at = damaged + header.count("\n") if damaged is not None else None  # the file's line
    return Parsed(header.removesuffix(_SEPARATOR), output, facts, claims, stored, at)


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
    header, _, _ = _split(text)
    keys = [line.split(": ", 1)[0] for line in header.splitlines()[:-1]]
    if not header.endswith(_SEPARATOR) or keys != list(_HEADER_KEYS):
        return text, (
            "the golden is damaged or truncated (its header is not the one the update mode "
            "writes); GOLDEN=update rewrites it"
        )
    damaged = parse(text).damaged
    if damaged is not None:
        return text, (
            f"the golden is damaged: its line {damaged} starts with a backslash but "
            "is not an escaped line the update mode writes; GOLDEN=update rewrites it"
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
