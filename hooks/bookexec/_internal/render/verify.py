"""The final HTML of a page, checked against what its blocks printed.

A golden that matches proves the output was right; only the page proves the reader sees it.
After MkDocs has written a page (`on_post_page`), every block the scanner planned for it must
be there exactly once: its source in one box, its output in one box of its own (inside the
`result` element when shown below the source), and the text of each box exactly what the block
shows (its snippet without the hidden lines, `bookexec._internal.discover.hidden`) and printed. A
block rendered twice, missing, cut short or spilling out of its box is a problem named by page,
block and snippet.

A block laid out as markdown-exec lays it out (`fences: markdown-exec`, `render.mdexec`) is not
checked here: what it prints is Markdown or HTML by markdown-exec's design, so the page holds
what that markup became, not the printed text, and markdown-exec's HTML carries no mark of
which block made it. Its golden still checks what it printed.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from html.parser import HTMLParser

from bookexec._internal.render.layout import CONSOLE_ATTR, OUTPUT_ATTR, SOURCE_ATTR, Look, displayed

_KINDS = {SOURCE_ATTR: "source", OUTPUT_ATTR: "output", CONSOLE_ATTR: "console"}
UNCHECKED = "markdown-exec"  # the `Look.source` of a block this check leaves alone
_LAB_CELL = "cell-id="  # nbconvert's id of a notebook cell's element
_LAB_OUTPUT = "jp-OutputArea-output"  # and of each of its outputs
# Elements with no end tag.
_VOID = frozenset(
    (
        *("area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta"),
        *("param", "source", "track", "wbr"),
    )
)


@dataclass(frozen=True)
class Expected:
    """What one block's boxes must hold on the page."""

    block_id: str
    where: str  # page, line, block and snippet, as every error names a block
    code: str  # the source the reader sees: the snippet without its hidden lines
    output: str
    look: Look

    def boxes(self) -> dict[str, str]:
        """Each box the block shows, by kind, with the text it must hold."""
        source = self.code.strip("\n")
        if self.look.source == "console":
            return {"console": displayed(source + "\n" + self.output)}
        boxes = {"source": displayed(source + "\n")}
        if self.output:
            boxes["output"] = displayed(self.output)
        return boxes


@dataclass
class Box:
    """A box found on the page: its block, its kind, its text, and what it sits in."""

    block_id: str
    kind: str
    in_result: bool
    text: list[str] = field(default_factory=list)
    codes: int = 0  # its code elements: one, or the box was broken up
    stray: list[str] = field(default_factory=list)  # its text outside code and title


class _Finder(HTMLParser):
    """Every box of the page (an element carrying one of the layout's data attributes) and the
    text of the code inside it; line numbers and the title are not the code."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)  # Python drops control characters otherwise
        self.boxes: list[Box] = []
        # (tag, the box it opens, inside <code>, a line number) for every open element
        self.stack: list[tuple[str, Box | None, bool, bool, bool]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        box = None
        for attr, kind in _KINDS.items():
            if attr in values:
                parent_result = bool(self.stack) and self.stack[-1][4]
                box = Box(values[attr] or "", kind, parent_result)
                self.boxes.append(box)
        if (values.get("id") or "").startswith(_LAB_CELL):  # mkdocs-jupyter's cell of a lab
            box = Box((values["id"] or "")[len(_LAB_CELL) :], "cell", False)
            self.boxes.append(box)
        classes = (values.get("class") or "").split()
        in_code = tag == "code" or _LAB_OUTPUT in classes
        in_code = in_code or (bool(self.stack) and self.stack[-1][2])
        if tag == "code" and (inside := self._box()) is not None:
            inside.codes += 1
        # Line numbers, the title and the hidden copy mkdocs-jupyter keeps for its copy button
        # are not the block's text.
        numbers = bool({"linenos", "filename", "clipboard-copy-txt"} & set(classes))
        numbers = numbers or (bool(self.stack) and self.stack[-1][3])
        is_result = tag == "div" and classes == ["result"]
        if tag not in _VOID:
            self.stack.append((tag, box, in_code, numbers, is_result))

    def handle_endtag(self, tag: str) -> None:
        for depth in range(len(self.stack) - 1, -1, -1):
            if self.stack[depth][0] == tag:
                del self.stack[depth:]
                return

    def _box(self) -> Box | None:
        return next((entry[1] for entry in reversed(self.stack) if entry[1] is not None), None)

    def _text(self, text: str) -> None:
        box = self._box()
        if box is None or self.stack[-1][3]:
            return
        if self.stack[-1][2]:
            box.text.append(text)
        elif text.strip() and box.kind != "cell":  # a cell also shows its code and prompts
            box.stray.append(text)

    def handle_data(self, data: str) -> None:
        self._text(data)

    def handle_entityref(self, name: str) -> None:
        self._text(html.unescape(f"&{name};"))

    def handle_charref(self, name: str) -> None:
        number = int(name[1:], 16) if name[:1] in "xX" else int(name)
        self._text(chr(number))


def boxes_of(page_html: str) -> list[Box]:
    """Every box on a page, in order."""
    lowered = page_html.lower()  # as the parser reads attribute names
    if not any(mark in lowered for mark in (*_KINDS, _LAB_CELL)):
        return []  # no element can open a box (markdown-exec's layout): nothing to parse
    finder = _Finder()
    finder.feed(page_html)
    finder.close()
    return finder.boxes


def problems(
    page: str, page_html: str, expected: list[Expected], docs: str = "docs"
) -> list[tuple[str, str]]:
    """What is wrong with the page's blocks as the reader sees them, each as (block id,
    message); empty when nothing. `docs`: the book's docs_dir, as messages name it."""
    found: dict[tuple[str, str], list[Box]] = {}
    for box in boxes_of(page_html):
        found.setdefault((box.block_id, box.kind), []).append(box)
    out: list[tuple[str, str]] = []
    wanted = {block.block_id for block in expected}
    for block_id, kind in sorted(found):
        if block_id not in wanted:
            message = f"{docs}/{page}: the page shows a {kind} box of block '{block_id}', "
            out.append((block_id, message + "which its scan did not plan"))
    for block in expected:
        if block.look.source == UNCHECKED:
            continue  # markdown-exec's layout: see the module's docstring
        boxes = block.boxes()
        for kind in ("source", "output", "console"):
            message = _box_problem(block, kind, found.get((block.block_id, kind), []), boxes)
            if message:
                out.append((block.block_id, message))
    return out


def _box_problem(block: Expected, kind: str, on_page: list[Box], boxes: dict[str, str]) -> str:
    """What is wrong with the block's boxes of one kind on the page ("" when nothing): one
    where the block has one, none where it has none."""
    if kind not in boxes:
        return f"{block.where}: the page shows a {kind} box it should not have" if on_page else ""
    if len(on_page) != 1:
        seen = "is missing" if not on_page else f"appears {len(on_page)} times"
        return f"{block.where}: on the page, its {kind} {seen}; it must appear once"
    box = on_page[0]
    verb = "holds" if kind == "source" else "printed"
    if box.codes != 1 or box.stray:
        return (
            f"{block.where}: the page's {kind} box does not hold exactly what the block "
            f"{verb}: it has {box.codes} code elements, and text outside them: "
            f"{''.join(box.stray)[:60]!r}"
        )
    text = "".join(box.text)
    if text != boxes[kind]:
        return (
            f"{block.where}: the page's {kind} box does not hold exactly what the block "
            f"{verb}: {_first_difference(text, boxes[kind])}"
        )
    if kind == "output" and block.look.source == "block" and not box.in_result:
        return f"{block.where}: its output box is not inside its result element"
    return ""


def lab_problems(
    page: str, page_html: str, cells: list[tuple[str, str, str]]
) -> list[tuple[str, str]]:
    """A lab's page: each code cell (block id, where, the output it shows) once, its outputs
    holding exactly that text. nbconvert's highlighting drops blank first and last lines, so
    those are not compared."""
    found: dict[str, list[Box]] = {}
    for box in boxes_of(page_html):
        if box.kind == "cell":
            found.setdefault(box.block_id, []).append(box)
    out: list[tuple[str, str]] = []
    for block_id, where, output in cells:
        on_page = found.get(block_id, [])
        if len(on_page) != 1:
            seen = "is missing" if not on_page else f"appears {len(on_page)} times"
            out.append(
                (block_id, f"{where}: on the lab's page, the cell {seen}; it must appear once")
            )
            continue
        text = displayed("".join(on_page[0].text)).strip("\n")
        if text != displayed(output).strip("\n"):
            wanted = displayed(output).strip("\n")
            message = (
                f"{where}: the lab's page does not show exactly what the cell printed: "
                f"{_first_difference(text, wanted)}"
            )
            out.append((block_id, message))
    return out


def _first_difference(shown: str, wanted: str) -> str:
    at = next(
        (i for i, (a, b) in enumerate(zip(shown, wanted, strict=False)) if a != b),
        min(len(shown), len(wanted)),
    )
    line = wanted.count("\n", 0, at) + 1
    return f"line {line}: the page has {shown[at : at + 40]!r}, the block {wanted[at : at + 40]!r}"
