"""How a page's outputs were made, said on the page in a reader's words: the JAX and Python its
code ran with, on which backend and how many devices (each block's, as its process said), when.

The note is markdown appended to every page with executed blocks. Everything in it is
deterministic for a given environment except the date, which sits alone in an element of
class `executed-book-build-date`, so a test comparing two builds can leave exactly that out.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath

from bookexec._internal.discover.blocks import Block
from bookexec._internal.execute.model import PageRun
from bookexec._internal.goldens.store import Provenance, golden_path, read_versions

DATE_CLASS = "executed-book-build-date"
TITLE = "About these outputs"


def build_date(environ: Mapping[str, str]) -> str:
    """Today in UTC, or the day SOURCE_DATE_EPOCH names (the reproducible-builds convention)."""
    epoch = environ.get("SOURCE_DATE_EPOCH")
    moment = datetime.fromtimestamp(int(epoch), UTC) if epoch else datetime.now(UTC)
    return moment.date().isoformat()


def from_goldens(golden_dir: Path, blocks: Iterable[Block]) -> Provenance | None:
    """What the goldens' VERSIONS file says produced them, if any of the page's blocks has one."""
    if not any(golden_path(golden_dir, b.page, b.id).is_file() for b in blocks):
        return None
    unknown = Provenance.of({name: "?" for name in ("jax", "jaxlib", "python")}, "?")
    return read_versions(golden_dir) or unknown


@dataclass(frozen=True)
class Setup:
    """A backend and device count some of the page's blocks ran with, and those blocks (their
    anchor's id and the file name their box shows), in page order."""

    backend: str
    devices: int
    blocks: tuple[tuple[str, str], ...] = ()


def setups_of(run: PageRun) -> list[Setup]:
    """What the page's blocks ran with, as their own processes said: the page's session first,
    then each other (a `fresh` block's new process asking for other devices)."""
    return [
        Setup(
            backend, devices, tuple((r.block.id, PurePosixPath(r.block.snippet).name) for r in runs)
        )
        for backend, devices, runs in run.setups()
    ]


def note(
    made: Provenance,
    recorded: bool,
    date: str,
    setups: Sequence[Setup] = (),
) -> str:
    """The admonition closing the page, in markdown (so MkDocs checks its links).

    `recorded`: nothing ran (BOOK_EXEC=off), the outputs are the goldens'. `setups`: what the
    blocks ran with, when more than the page's one (`setups_of`). It says what the reader needs
    to compare their run with the page, and nothing about how the book checks itself: the
    book's "About this book" pages say that.
    """
    title = f'!!! info executed-book-provenance "{TITLE}"'
    return f"\n\n{title}\n\n    {_body(made, recorded, date, setups)}\n"


def note_html(made: Provenance, recorded: bool, date: str, setups: Sequence[Setup] = ()) -> str:
    """The same note as HTML, for a lab: mkdocs-jupyter renders notebooks, not admonitions."""
    text = html.escape(_body(made, recorded, date, setups), quote=False)
    text = re.sub(r"`([^`]+)`", r"<code>\1</code>", text)
    text = re.sub(r"\[([^\]]+)\]\((#[\w-]+)\)", r'<a href="\2">\1</a>', text)
    text = text.replace(html.escape(_when(date), quote=False), _when(date))
    return (
        '<div class="admonition info executed-book-provenance">'
        f'<p class="admonition-title">{TITLE}</p>'
        f"<p>{text}</p></div>"
    )


def _when(date: str) -> str:
    return f'<time class="{DATE_CLASS}" datetime="{date}">{date}</time>'


def _backend(name: str) -> str:
    """A backend as people write it: CPU, GPU, TPU."""
    return name.upper() if name in ("cpu", "gpu", "tpu") else name


def _on(backend: str, devices: int) -> str:
    if backend == "none":  # the code never started JAX: no backend to name
        return ""
    count = f"{devices} device" + ("" if devices == 1 else "s")
    return f" on the {_backend(backend)} backend with {count}"


def _body(made: Provenance, recorded: bool, date: str, setups: Sequence[Setup] = ()) -> str:
    when = _when(date)
    jax, jaxlib, python = (made.version(name) for name in ("jax", "jaxlib", "python"))
    versions = f"JAX {jax} (jaxlib {jaxlib}) and Python {python}"
    if recorded:
        on = f" on the {_backend(made.backend)} backend" if made.backend != "none" else ""
        return (
            f"These outputs were recorded earlier, with {versions}{on}; this copy of the page "
            f"shows them without running its code again ({when})."
        )
    body = f"The outputs on this page come from running its code on {when} with {versions}"
    if not setups:
        return body + _on(made.backend, made.devices) + "."
    first, *others = setups
    body += _on(first.backend, first.devices)
    for other in others:
        boxes = [f"[{name}](#block-{ident})" for ident, name in other.blocks]
        named = ", ".join(boxes[:-1]) + (" and " if len(boxes) > 1 else "") + boxes[-1]
        body += f"; {named} ran in a new process{_on(other.backend, other.devices)}"
    return body + "."
