"""How a page's outputs were made, said on the page: versions, backend, devices, build date.

The note is markdown appended to every page with executed blocks. Everything in it is
deterministic for a given environment except the date, which sits alone in an element of
class `executed-book-build-date`, so a test comparing two builds can leave exactly that out.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath

from bookexec.discover.blocks import Block
from bookexec.goldens.store import Provenance, golden_path, read_versions

DATE_CLASS = "executed-book-build-date"
TRUE_PAGE = "how-it-stays-true.md"


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


def note(made: Provenance, recorded: bool, date: str, page: str, link: bool = True) -> str:
    """The admonition closing the page, in markdown (so MkDocs checks its link).

    `recorded`: nothing ran (BOOK_EXEC=off), the outputs are the goldens'. It links to the
    page explaining the goldens when the book has one (`link`).
    """
    more = ""
    if link and page != TRUE_PAGE:
        more = f" [How this book stays true]({_relative_link(page)})."
    title = '!!! info executed-book-provenance "How this page was made"'
    return f"\n\n{title}\n\n    {_body(made, recorded, date)}{more}\n"


def note_html(made: Provenance, recorded: bool, date: str, page: str) -> str:
    """The same note as HTML, for a lab: mkdocs-jupyter renders notebooks, not admonitions."""
    text = html.escape(_body(made, recorded, date), quote=False)
    text = re.sub(r"`([^`]+)`", r"<code>\1</code>", text)
    text = text.replace(html.escape(_when(date), quote=False), _when(date))
    link = "../" * (page.count("/") + 1) + PurePosixPath(TRUE_PAGE).stem + "/"
    return (
        '<div class="admonition info executed-book-provenance">'
        '<p class="admonition-title">How this page was made</p>'
        f'<p>{text} <a href="{link}">How this book stays true</a>.</p></div>'
    )


def _when(date: str) -> str:
    return f'<time class="{DATE_CLASS}" datetime="{date}">{date}</time>'


def _body(made: Provenance, recorded: bool, date: str) -> str:
    when = _when(date)
    jax, jaxlib, python = (made.version(name) for name in ("jax", "jaxlib", "python"))
    if recorded:
        body = (
            f"Nothing ran when this page was built on {when}: execution was off "
            "(`BOOK_EXEC=off`), so every output shown is the recorded golden from "
            "`tests/golden/`. The goldens record JAX "
            f"{jax}, jaxlib {jaxlib}, Python {python} and the "
            f"{made.backend} backend; they do not record a device count."
        )
    else:
        devices = f"{made.devices} device" + ("" if made.devices == 1 else "s")
        body = (
            f"Every output on this page is what its code printed when the page was "
            f"built on {when}, under JAX {jax}, jaxlib {jaxlib} and Python "
            f"{python}, on the {made.backend} backend with {devices}."
        )
    return body


def _relative_link(page: str) -> str:
    """A link from docs/<page> to the page explaining the goldens, relative like any other."""
    depth = page.count("/")
    return "../" * depth + TRUE_PAGE
