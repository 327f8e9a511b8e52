"""An executed block as HTML, made by the engine alone: nothing a block holds becomes markup.

markdown-exec lays a block out as Markdown (its source and its output each in a fence of eight
backticks) and converts that, so an output or a source line with a longer run of backticks
closed the fence and what followed reached the page as raw HTML; a `--8<--` line in an output
was even included by pymdownx.snippets. Here the source and the output never go through
Markdown: each is highlighted by the page's own pymdownx.highlight settings (the same HTML a
fence gets: Material's code block, the title, the copy button, the jaxpr colours), and only the
layout around them (tabs) is Markdown, with empty slots that the highlighted code fills after.

Measured values reach the highlighter as tokens of letters and digits, which no lexer splits,
with a prefix the block's own text does not contain, so no output can forge one. So do the
bidirectional controls a source or an output holds, which would reorder what the reader sees
(the "Trojan Source" trick): each comes out as a visible, titled marker
(`bookexec._internal.escapes`), and the box gets a warning line above it.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import Any

from markdown import Markdown
from markdown_exec import MarkdownConverter, tabbed
from pymdownx.highlight import Highlight  # type: ignore[import-untyped]

from bookexec._internal.escapes import BIDI, bidi_warning, has_bidi, marked_html, visible
from bookexec._internal.goldens import measured
from bookexec._internal.goldens.measured import Fact

SOURCE_PLACES = ("block", "above", "below", "tabbed-left", "tabbed-right", "console")
DEFAULT_TABS = ("Source", "Result")
# The data attributes the page verifier (`bookexec._internal.render.verify`) finds each box by.
SOURCE_ATTR = "data-executed-book-source"
OUTPUT_ATTR = "data-executed-book-output"
CONSOLE_ATTR = "data-executed-book-console"
# Control characters would pass Pygments and html.escape untouched; Python-Markdown reads
# STX...ETX as its own placeholders. As character references they are text in the browser.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_PREFIX = "bookexecvalue"
_BIDI = re.compile(f"[{BIDI}]")
# Which box a code box is, by its data attribute, for its warning line.
_WHAT = {SOURCE_ATTR: "source", OUTPUT_ATTR: "output", CONSOLE_ATTR: "console"}
# The settings superfences hands pymdownx.highlight's `Highlight` (all but stripnl).
_SETTINGS = (
    *("guess_lang", "pygments_style", "use_pygments", "noclasses", "linenums"),
    *("linenums_style", "linenums_special", "linenums_class", "extend_pygments_lang"),
    *("language_prefix", "code_attr_on_pre", "auto_title", "auto_title_map", "line_spans"),
    *("line_anchors", "anchor_linenums", "pygments_lang_class", "default_lang", "title_mode"),
)


UNMEASURED = "…"  # a measured value of an output that did not run again (`shown_text`)


class Shown(str):
    """A block's output as the page shows it, measured values in place; `measured` holds the
    (start, end) of each timing or ratio, which the page marks as measured."""

    measured: tuple[tuple[int, int], ...] = ()
    # What the marked values are (`pipeline.judge.shown`), said under the box: a sentence
    # whose `{}` the values take, and the values.
    note: tuple[str, tuple[str, ...]] | None = None


def shown_text(output: str, facts: list[Fact]) -> Shown:
    """The output as the page shows it: each measured value as the code printed it
    (`measured.PRINTED`), remembering where the timings and ratios went. A golden's bare
    placeholder (a page showing its goldens) keeps no digits and no format: a measured one
    shows `UNMEASURED` until the code runs again (the golden's value in the book's own units
    could disagree with the units the code prints around it); an exact one its value."""
    by_name = {fact.name: fact for fact in facts}
    parts: list[str] = []
    spans: list[tuple[int, int]] = []
    at = length = 0
    for found in measured.PRINTED.finditer(output):
        fact = by_name.get(found[1])
        if found[2] is not None:
            value = found[2]
        elif fact is not None:
            value = UNMEASURED if fact.banded else fact.shown()
        else:
            continue
        parts.append(output[at : found.start()])
        length += found.start() - at
        if found[2] is not None or (fact is not None and fact.banded):
            spans.append((length, length + len(value)))
        parts.append(value)
        length += len(value)
        at = found.end()
    parts.append(output[at:])
    text = Shown("".join(parts))
    text.measured = tuple(spans)
    return text


def measured_spans(text: str) -> tuple[tuple[int, int], ...]:
    """The measured values' places in a shown output (none in plain text)."""
    return getattr(text, "measured", ())


def displayed(text: str) -> str:
    """The text a code box holds for `text`: what the reader's browser shows. Pygments reads
    a carriage return as a line end, and ends the code with one newline; a bidirectional
    control is shown as its marker."""
    text = visible(text.replace("\r\n", "\n").replace("\r", "\n"))
    return text if text.endswith("\n") else text + "\n"


@dataclass(frozen=True)
class Look:
    """How the author asked for the block to be shown: markdown-exec's display options, each
    already checked by `bookexec._internal.discover.options`."""

    source: str = "block"
    result: str = "text"
    tabs: tuple[str, str] = DEFAULT_TABS
    title: str = ""
    hl_lines: str = ""
    linenums: str = ""


@dataclass
class Highlighter:
    """The page's pymdownx.highlight settings, applied exactly as superfences applies them."""

    md: object

    def settings(self) -> tuple[dict[str, Any], object | None]:
        """The page's highlight settings and the extension holding them (none: defaults)."""
        for ext in getattr(self.md, "registeredExtensions", []):
            if hasattr(ext, "get_pymdownx_highlight_settings"):
                return ext.get_pymdownx_highlight_settings(), ext
        return {}, None

    def code(
        self,
        text: str,
        language: str,
        attrs: dict[str, str],
        spans: tuple[tuple[int, int], ...] = (),
        look: Look | None = None,
    ) -> str:
        """`text` highlighted as `language`, as one code box; `spans` marked as measured."""
        look = look or Look()
        settings, ext = self.settings()
        options = {key: settings[key] for key in _SETTINGS if key in settings}
        # Every line as printed, blank first and last lines included.
        highlighter = Highlight(self.md, stripnl=False, **options)
        prefix = _token_prefix(text)
        tokenised = _BIDI.sub(lambda m: f"{prefix}u{ord(m[0]):x}x", _tokenise(text, spans, prefix))
        count = 0
        if ext is not None and hasattr(ext, "pygments_code_block"):
            ext.pygments_code_block += 1
            count = ext.pygments_code_block
        linestart, linestep, linespecial = _linenums(look.linenums)
        out = highlighter.highlight(
            tokenised,
            language,
            settings.get("css_class", "highlight"),
            hl_lines=_hl_lines(look.hl_lines, text.count("\n") + 1),
            linestart=linestart,
            linestep=linestep,
            linespecial=linespecial,
            attrs=attrs,
            title=visible(look.title) or None,
            code_block_count=count,
        )
        out = _CONTROL.sub(lambda m: f"&#{ord(m[0])};", out)
        warning = bidi_warning(_WHAT.get(next(iter(attrs), ""), "code")) if has_bidi(text) else ""
        return warning + _untokenise(out, prefix)


def block_html(md: Markdown, block_id: str, code: str, output: str, look: Look) -> str:
    """The block's source and output laid out as `look` asks, every part made here."""
    highlight = Highlighter(md)
    source = code.strip("\n")
    spans = measured_spans(output)
    if look.source == "console":
        joined = source + "\n" + output
        offset = len(source) + 1
        moved = tuple((start + offset, end + offset) for start, end in spans)
        attrs = {CONSOLE_ATTR: block_id}
        return highlight.code(joined, look.result or "python", attrs, moved, look)
    source_html = highlight.code(source + "\n", "python", {SOURCE_ATTR: block_id}, (), look)
    output_html = ""
    if output:
        plain = Look()  # the title, hl_lines and linenums are the source's
        output_html = highlight.code(output, look.result, {OUTPUT_ATTR: block_id}, spans, plain)
    if look.source == "above":
        return source_html + ("\n" + output_html if output_html else "")
    if look.source == "below":
        return (output_html + "\n" if output_html else "") + source_html
    if look.source == "block":
        if not output_html:
            return source_html
        return f'{source_html}\n<div class="result">\n{output_html}\n</div>'
    return _tabbed(md, block_id, source_html, output_html, look)


def _tabbed(md: Markdown, block_id: str, source_html: str, output_html: str, look: Look) -> str:
    """pymdownx.tabbed's tabs around the two boxes: only the layout is Markdown; each tab holds
    an empty element that the box replaces once the Markdown is HTML."""
    slots = {
        f'<div class="executed-book-slot-source-{block_id}"></div>': source_html,
        f'<div class="executed-book-slot-output-{block_id}"></div>': output_html,
    }
    source_slot, output_slot = slots
    titles = (look.tabs[0], look.tabs[1])
    if look.source == "tabbed-left":
        layout = tabbed((titles[0], source_slot), (titles[1], output_slot))
    else:
        layout = tabbed((titles[1], output_slot), (titles[0], source_slot))
    converter = MarkdownConverter(md, update_toc=False)
    return str(converter.convert(layout, stash=slots, id_prefix=f"{block_id}-"))


def _token_prefix(text: str) -> str:
    """`bookexecvalue` and the first number that makes it absent from `text`: then only the
    engine's tokens hold it (it starts with the one 'b' it has, so no token can be read into
    the text around it)."""
    number = 0
    while f"{_PREFIX}{number}" in text:
        number += 1
    return f"{_PREFIX}{number}"


def _tokenise(text: str, spans: tuple[tuple[int, int], ...], prefix: str) -> str:
    parts, at = [], 0
    for start, end in spans:
        parts += [text[at:start], f"{prefix}{text[start:end].encode().hex()}x"]
        at = end
    return "".join(parts) + text[at:]


def _untokenise(rendered: str, prefix: str) -> str:
    token = re.compile(re.escape(prefix) + r"([0-9a-f]+)x")
    bidi = re.compile(re.escape(prefix) + r"u([0-9a-f]+)x")  # 'u' is no hex digit: apart
    rendered = bidi.sub(lambda m: marked_html(chr(int(m[1], 16))), rendered)
    return token.sub(
        lambda m: measured.html_mark(html.escape(bytes.fromhex(m[1]).decode(), quote=False)),
        rendered,
    )


def _hl_lines(spec: str, line_count: int) -> list[int]:
    """superfences' reading of `hl_lines`: numbers and ranges, kept to the code's lines."""
    lines: list[int] = []
    for entry in spec.split():
        first, _, last = entry.partition("-")
        low, high = int(first), int(last or first)
        lines += [n for n in range(low, high + 1) if 1 <= n <= line_count]
    return lines


def _linenums(spec: str) -> tuple[int, int, int]:
    """`linenums="start [step [special]]"`, as superfences reads it; -1 where not given."""
    numbers = [int(n) for n in spec.split()] + [-1, -1, -1]
    if not spec:
        return -1, -1, -1
    start, step, special = numbers[:3]
    return start, step if step > 1 else -1, special
