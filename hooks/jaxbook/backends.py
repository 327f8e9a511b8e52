"""What an accelerator prints differently: the chapters' notebooks recorded on two backends
under one JAX (`backend_run.py`), each block's difference classified, and the page that says
it, `docs/accelerators.md`, generated from the records.

The records live in `tests/other-backends/<name>/` (a `RECORDED` file and one record a block).
The page compares the accelerator's records (`ACCELERATOR`) with the CPU's made on the same
machine under the same JAX and Python (`BASE`), so a difference is the backend's. Notes, in
`tests/other-backends/notes.toml`, say what a difference means for a reader; a note whose
blocks print the same on both backends, and a chapter's note quoting a line its block's record
does not hold, fail the strict build (`problems`).
"""

from __future__ import annotations

import difflib
import re
import tomllib
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from bookexec import BookContext
from bookexec._internal.discover.blocks import scan_page
from bookexec._internal.errors import BookError
from bookexec._internal.files import confined, read_regular, write_atomic
from bookexec._internal.goldens.normalize import addresses

RECORDS = Path("tests/other-backends")
PAGE = "accelerators.md"  # in the docs_dir
NOTES = RECORDS / "notes.toml"
ACCELERATOR, BASE = "tpu-v5e", "tpu-v5e-cpu"

# The classes, from the least to the most a reader must know, and what each means.
CLASSES = {
    "device names": "the devices print under the accelerator's names, or its runtime "
    "says something as it starts",
    "device count": "the number of devices the backend has shows in the output",
    "timings": "a measured time or ratio, different on every machine",
    "float digits": "numbers equal to a relative 1e-4: the last digits of a float32, where "
    "the backends compute a function such as tanh or exp their own way",
    "precision": "numbers equal only to a relative 1e-2, as a float32 matrix product is at "
    "a TPU's default precision (bfloat16 inputs) or a GPU's (TensorFloat-32 on recent cards), "
    "or a function such as tanh near where it is steep",
    "order": "the same lines, printed in another order (callbacks and logs run asynchronously)",
    "real": "a different result: a value, a truth or a program",
    "error": "the block raised on one backend only, or another exception on each",
}
DIGITS, PRECISION = 1e-4, 1e-2
_NUMBER = re.compile(r"[-+]?(?:\d{1,3}(?:,\d{3})+|\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")
_INTEGER = re.compile(r"[-+]?\d{1,3}(?:,\d{3})+|[-+]?\d+")
_TIME = re.compile(
    r"\d\s*(?:ms|µs|us|ns|s|seconds?)\b|\d\s*[x×]\b"
    r"|\b(?:faster|slower|times as long|a ratio of|by a factor of)\b"
)
_DEVICE = re.compile(
    r"\b(?:Tpu|Cpu|Gpu|Cuda|Rocm)Device\([^()]*(?:\([^()]*\)[^()]*)*\)"
    r"|\b(?:TPU|CPU|GPU|tpu|cpu|gpu|cuda|rocm)(?:_\d+|:\d+)?\b|TPU v\w+(?: lite)?"
)
# A C++ log line's time and thread; object ids and addresses are the goldens' normaliser's.
_LOG_STAMP = re.compile(r"(?m)^[IWEF]\d{4} \d\d:\d\d:\d\d\.\d+ +\d+ ")


@dataclass(frozen=True)
class Record:
    """One block as a backend ran it: `result` is `ok` or `raised <Type>`."""

    key: str  # chapter/block-id
    result: str
    seconds: float
    output: str
    code: str = ""  # the hash of the code that ran (`backend_run.code_hash`)


def read_records(folder: Path) -> dict[str, Record]:
    """Every record under `folder`, by `chapter/block-id`."""
    records: dict[str, Record] = {}
    for path in sorted(folder.glob("*/*.txt")):
        header, sep, output = path.read_text(encoding="utf-8").partition("\n---\n")
        fields = dict(line.split(": ", 1) for line in header.splitlines() if ": " in line)
        if not sep or "result" not in fields:
            raise BookError(f"{path}: not a backend record (no header, or no `result:`)")
        key = f"{path.parent.name}/{path.stem}"
        seconds = float(fields.get("seconds", "0"))
        records[key] = Record(key, fields["result"], seconds, output, fields.get("code", ""))
    return records


def recorded(folder: Path) -> dict[str, str]:
    """What `folder`'s records were made with (its `RECORDED` file)."""
    path = folder / "RECORDED"
    if not path.is_file():
        return {}
    return dict(line.split(": ", 1) for line in path.read_text().splitlines() if ": " in line)


def _devices(line: str) -> str:
    """The line with each device named alike, and a list of them as one."""
    named = _DEVICE.sub("<device>", line)
    return re.sub(r"<device>(?:, <device>)+", "<device>", named)


def _close(a: str, b: str, tolerance: float) -> bool:
    x, y = float(a.replace(",", "")), float(b.replace(",", ""))
    return abs(x - y) <= tolerance * max(abs(x), abs(y)) + tolerance * 1e-2


def _skeleton(line: str) -> str:
    """The line without its numbers and with its spaces collapsed (NumPy pads columns to the
    widest number, so one more digit moves the others)."""
    return " ".join(_NUMBER.sub("#", line).replace("[", "[ ").replace("]", " ]").split())


def line_class(base: str, other: str) -> str:
    """How one printed line (or a run of lines NumPy wrapped) differs between the base
    backend and another."""
    if _devices(base) == _devices(other):
        lists = base.count("Device(") != other.count("Device(")
        return "device count" if lists else "device names"
    if _skeleton(base) == _skeleton(other):
        pairs = [
            (a, b)
            for a, b in zip(_NUMBER.findall(base), _NUMBER.findall(other), strict=True)
            if a != b
        ]
        if _TIME.search(base) and _TIME.search(other):
            return "timings"
        if any(_INTEGER.fullmatch(a) and _INTEGER.fullmatch(b) for a, b in pairs):
            return "device count" if "device" in base.lower() else "real"  # a count, a size
        if all(_close(a, b, DIGITS) for a, b in pairs):
            return "float digits"
        if all(_close(a, b, PRECISION) for a, b in pairs):
            return "precision"
        if "device" in base.lower():
            return "device count"
    named = _devices(base) != base or _devices(other) != other
    if named and _skeleton(_devices(base)) == _skeleton(_devices(other)):
        return "device count"
    return "real"


# A backend's runtime warning as it starts (a TPU's about its memory pages), the line
# Python's warnings module prints after it included: the machine's, not the block's.
_STARTUP = re.compile(r"/(?:cloud_tpu_init|xla_bridge)\.py:\d+: \w*Warning: ")


def _startup(lines: list[str], i: int) -> bool:
    if _STARTUP.search(lines[i]):
        return True
    return i > 0 and bool(_STARTUP.search(lines[i - 1])) and lines[i].strip().startswith("warn")


def classify(base: Record, other: Record) -> tuple[str, ...]:
    """The classes of every difference between two records of one block, sorted from the
    least to the most a reader must know; () when they print the same."""
    if base.result != other.result:
        return ("error",)
    a = _LOG_STAMP.sub("#", addresses(base.output)).splitlines()
    b = _LOG_STAMP.sub("#", addresses(other.output)).splitlines()
    found: set[str] = set()
    if any(_STARTUP.search(line) for line in a + b):  # the runtime's own start-up words
        found.add("device names")
        a = [line for i, line in enumerate(a) if not _startup(a, i)]
        b = [line for i, line in enumerate(b) if not _startup(b, i)]
    if a != b and sorted(a) == sorted(b):
        return tuple(name for name in CLASSES if name in found | {"order"})
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        left, right = a[i1:i2], b[j1:j2]
        if len(left) == len(right):
            found.update(line_class(x, y) for x, y in zip(left, right, strict=True))
        elif all("device" in line.lower() for line in left + right):
            found.add("device count")
        else:  # an array NumPy wrapped at another width: the run of lines as one
            found.add(line_class(" ".join(left), " ".join(right)))
    return tuple(name for name in CLASSES if name in found)


@dataclass(frozen=True)
class BackendNote:
    """What a difference means for a reader, and the blocks that show it."""

    title: str
    text: str
    blocks: tuple[str, ...]


def read_notes(root: Path) -> list[BackendNote]:
    """The notes, in their order; none without the file."""
    path = root / NOTES
    if not path.is_file():
        return []
    try:
        table = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as bad:
        raise BookError(f"{NOTES}: not readable TOML: {bad}") from None
    notes = []
    for number, item in enumerate(table.get("note", []), 1):
        title, text, blocks = item.get("title"), item.get("text"), item.get("blocks")
        if not (isinstance(title, str) and title.strip() and isinstance(text, str)):
            raise BookError(f"{NOTES}, note {number}: a one-line `title` and a `text`")
        if not (isinstance(blocks, list) and blocks and all("/" in str(b) for b in blocks)):
            raise BookError(f"{NOTES}, note {number}: `blocks` lists 'chapter/block-id's")
        notes.append(BackendNote(title.strip(), " ".join(text.split()), tuple(map(str, blocks))))
    return notes


@dataclass(frozen=True)
class Difference:
    key: str
    classes: tuple[str, ...]
    base: Record
    other: Record


def differences(base: dict[str, Record], other: dict[str, Record]) -> list[Difference]:
    """Every block both backends recorded, in chapter and block order, with its classes."""
    return [
        Difference(key, classify(base[key], other[key]), base[key], other[key])
        for key in sorted(base.keys() & other.keys())
    ]


def unrecorded(book: BookContext, records: dict[str, Record]) -> dict[str, list[str]]:
    """What the records do not cover of the chapters as they are now: blocks with no record,
    and blocks whose code changed since it was recorded, by chapter (`chapter/block-id`)."""
    from jaxbook.backend_run import code_hash

    chapters = sorted({key.split("/")[0] for key in records})
    found: dict[str, list[str]] = {"not recorded": [], "changed since recorded": []}
    for chapter in chapters:
        page = book.docs_dir / f"{chapter}.md"
        if not page.is_file():
            continue
        text = page.read_text(encoding="utf-8")
        reading = book.settings.reading()
        for block in scan_page(page.name, text, book.root, book.settings.auto, reading):
            key = f"{chapter}/{block.id}"
            if key not in records:
                found["not recorded"].append(key)
            elif records[key].code and records[key].code != code_hash(block.shown):
                found["changed since recorded"].append(key)
    return found


def _excerpt(base: str, other: str, limit: int = 8) -> str:
    """The first differing lines, as a unified diff a reader reads: CPU first."""
    lines = list(
        difflib.unified_diff(base.splitlines(), other.splitlines(), "CPU", "TPU", n=0, lineterm="")
    )[2:]
    lines = [line for line in lines if not line.startswith("@@")]
    cut: list[str] = []
    for sign in "-+":  # both sides, each cut short alike
        side = [line for line in lines if line.startswith(sign)]
        cut += [line[:110] for line in side[:limit]]
        if len(side) > limit:
            cut.append(f"{sign} … {len(side) - limit} more lines")
    return "\n".join(cut)


def _chapter_table(found: Iterable[Difference]) -> str:
    counts: dict[str, Counter[str]] = {}
    for diff in found:
        chapter = diff.key.split("/")[0]
        row = counts.setdefault(chapter, Counter())
        row["blocks"] += 1
        row["same"] += not diff.classes
        for name in diff.classes:
            row[name] += 1
    present = {name for row in counts.values() for name in row}
    columns = ["blocks", "same", *(name for name in CLASSES if name in present)]
    head = "| Chapter | " + " | ".join(c.capitalize() for c in columns) + " |\n"
    head += "| --- |" + " ---: |" * len(columns) + "\n"
    body = "".join(
        f"| [{chapter}]({chapter}.md) | "
        + " | ".join(str(row[c]) if row[c] else "" for c in columns)
        + " |\n"
        for chapter, row in sorted(counts.items())
    )
    total: Counter[str] = sum(counts.values(), Counter())
    body += "| **All** | " + " | ".join(str(total[c]) for c in columns) + " |\n"
    return head + body


def render_page(book: BookContext) -> str:
    """The page, from the committed records and notes; a note no record supports raises."""
    folder = book.root / RECORDS
    base, other = read_records(folder / BASE), read_records(folder / ACCELERATOR)
    made, made_base = recorded(folder / ACCELERATOR), recorded(folder / BASE)
    missing = unrecorded(book, other)
    stale = set(missing["changed since recorded"])
    found = [d for d in differences(base, other) if d.key not in stale]
    notes = read_notes(book.root)
    _check_notes(notes, found)
    out = _head(made, made_base)
    out.append("## What differs, by kind\n\n")
    out += [f"- **{name}**: {meaning}.\n" for name, meaning in CLASSES.items()]
    out.append("\n## Chapter by chapter\n\n" + _chapter_table(found) + "\n")
    out += _notes_section(notes)
    out += _missing_section(missing)
    out += _differences_section(found)
    return "".join(out)


def _check_notes(notes: list[BackendNote], found: list[Difference]) -> None:
    """Each note names only blocks that print something else on the two backends."""
    by_key = {d.key: d for d in found}
    for note in notes:
        for key in note.blocks:
            if key not in by_key or not by_key[key].classes:
                raise BookError(
                    f"{NOTES}, note '{note.title}': {key} printed the same on both backends "
                    "(or was not recorded), so it does not show this difference"
                )


def _head(made: dict[str, str], made_base: dict[str, str]) -> list[str]:
    """The front matter, the title and what the records are: machine, releases, scope."""
    kind = made.get("device_kind", "?")
    out = [
        "---\ngenerated: by ./book accelerators from tests/other-backends/; do not edit, the "
        "strict build regenerates this page and fails if it differs\n"
        "search:\n  boost: 0.5\nprose-audit:\n"
        f'  - text: "Python {made.get("python", "?")}"\n'
        "    reason: the Python the accelerator's records were made with (their RECORDED)\n"
        "---\n\n",
        "# On a GPU or TPU\n\n",
        f"Every chapter's code, as its notebook runs it, ran on an accelerator ({kind}, "
        f"{made.get('devices', '?')} chip) and on the CPU of the same machine, both under "
        f"JAX {made.get('jax', '?')} and Python {made.get('python', '?')} "
        f"({made.get('date', '?')}). That JAX is the one the accelerator's machine has, "
        "older than the one the chapters show: a block whose output changed between "
        "releases is in [What changed across JAX releases](jax-changes.md), and a block "
        "that fails under the older release fails on both backends here. What this page "
        "compares is the backend alone.\n\n"
        "A block uses the default backend, the accelerator, except in the chapters on "
        "sharding and collectives and the two sharded blocks of Leaving the trace: they "
        "ask for eight CPU devices first, so on a machine with one accelerator they print "
        "what their pages show (the first block of each also prints the accelerator "
        "runtime's start-up warning), and these records do not exercise them on the "
        "accelerator itself. All the records are a TPU's: no GPU's were made.\n\n",
        "Most of what differs is what you expect to differ: the devices' names, measured "
        "times, and the last digits of a float. The rest is below, chapter by chapter, with "
        "what to do about it.\n\n",
    ]
    if made_base.get("jax") != made.get("jax"):
        out.append(
            f"!!! warning\n    The CPU records were made under JAX {made_base.get('jax')}, "
            f"the accelerator's under {made.get('jax')}: a difference may be the release's.\n\n"
        )
    return out


def _notes_section(notes: list[BackendNote]) -> list[str]:
    """What to do about each kind of difference, from the notes, with the blocks it names."""
    if not notes:
        return []
    out = ["## What to do about it\n\n"]
    for note in notes:
        links = ", ".join(
            f"[`{k.split('/')[1]}`]({k.split('/')[0]}.md#block-{k.split('/')[1]})"
            for k in note.blocks
        )
        out.append(f"- **{note.title}** ({links}). {note.text}\n")
    out.append("\n")
    return out


def _missing_section(missing: dict[str, list[str]]) -> list[str]:
    """The blocks the records do not cover yet, by why."""
    if not any(missing.values()):
        return []
    out = [
        "## Not compared yet\n\n",
        "These blocks changed, or were added, after the records were made; the records "
        "will cover them when they are made again on an accelerator.\n\n",
    ]
    for why, keys in missing.items():
        if keys:
            links = ", ".join(
                f"[`{k}`]({k.split('/')[0]}.md#block-{k.split('/')[1]})" for k in keys
            )
            out.append(f"- {why.capitalize()}: {links}.\n")
    out.append("\n")
    return out


def _differences_section(found: list[Difference]) -> list[str]:
    """Every block that prints something else, by chapter, with an excerpt where it matters."""
    out = [
        "## Every block that prints something else\n\n"
        "In each excerpt, a line that starts with `-` is the CPU's and one that starts with "
        "`+` the accelerator's.\n\n"
    ]
    chapter = ""
    for diff in found:
        if not diff.classes:
            continue
        name, block = diff.key.split("/")
        if name != chapter:
            chapter = name
            out.append(f"### [{name}]({name}.md)\n\n")
        out.append(f"- [`{block}`]({name}.md#block-{block}): {', '.join(diff.classes)}\n")
        if set(diff.classes) & {"real", "precision", "error"}:
            out.append("\n    ```diff\n" + _indent(_diff_excerpt(diff)) + "\n    ```\n\n")
    return out


def _diff_excerpt(diff: Difference) -> str:
    excerpt = _excerpt(diff.base.output, diff.other.output)
    if diff.base.result != diff.other.result:
        excerpt = f"CPU: {diff.base.result}\nTPU: {diff.other.result}\n" + excerpt
    return excerpt


def _indent(text: str) -> str:
    return "\n".join(f"    {line}" if line else "" for line in text.splitlines())


_QUOTE = re.compile(
    r"<!-- on-accelerator: (?P<key>[\w-]+/[\w-]+) -->\n(?P<body>(?:(?: {4}.*)?\n)+)"
)


def chapter_quotes(book: BookContext) -> list[tuple[str, str, list[str]]]:
    """Each chapter note on the accelerator: (page, block key, the lines its code quotes)."""
    found = []
    for page in sorted(book.docs_dir.glob("*.md")):
        text = page.read_text(encoding="utf-8")
        for match in _QUOTE.finditer(text):
            lines, inside = [], False
            for line in match["body"].splitlines():
                if line.strip().startswith("```"):
                    inside = not inside
                elif inside and line.strip():
                    lines.append(line.strip())
            found.append((page.name, match["key"], lines))
    return found


def problems(book: BookContext) -> str | None:
    """Why the generated page or a chapter's note does not match the records, or None."""
    folder = book.root / RECORDS
    if not (folder / ACCELERATOR).is_dir():
        return None
    page, docs = book.docs_dir / PAGE, book.settings.docs
    try:
        text = render_page(book)
    except BookError as error:
        return str(error)
    if not page.is_file() or page.read_text(encoding="utf-8") != text:
        return f"{docs}/{PAGE} does not match {RECORDS.as_posix()}/: run ./book accelerators"
    other = read_records(folder / ACCELERATOR)
    for name, key, lines in chapter_quotes(book):
        printed = other[key].output.splitlines() if key in other else []
        missing = [line for line in lines if line not in {p.strip() for p in printed}]
        if key not in other or missing:
            said = missing[0] if missing else "(no record)"
            return (
                f"{docs}/{name}: its note on {key} quotes a line the accelerator's record of "
                f"that block does not hold: {said!r}"
            )
    return None


def write_page(book: BookContext) -> bool:
    """Regenerate the page from the records; True when its text changed. Without records
    there is no page to write."""
    if not (book.root / RECORDS / ACCELERATOR).is_dir():
        return False
    text = render_page(book)
    page = confined(book.docs_dir / PAGE, book.docs_dir)
    if read_regular(page) == text.encode("utf-8"):
        return False
    write_atomic(page, text, inside=book.docs_dir)  # as jax-changes writes its page
    return True


def records_note(root: Path, jax_version: str) -> str | None:
    """Said by the drift watch: the accelerator's records were made under another JAX than
    `jax_version` (the one the book is built with), so the page tells of that release."""
    made = recorded(root / RECORDS / ACCELERATOR)
    if not made or made.get("jax") == jax_version:
        return None
    return (
        f"{PAGE}: the accelerator's records ({ACCELERATOR}) were made under JAX "
        f"{made.get('jax')} on {made.get('date')}, not {jax_version}: record them again "
        "where a TPU is lent (docs/guide/upgrades.md, 'Records on an accelerator')"
    )
