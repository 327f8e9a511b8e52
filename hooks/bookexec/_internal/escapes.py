"""Characters a reader or a reviewer would not see as they are, made visible.

Control characters drive a terminal (ESC sequences move the cursor and erase lines, OSC
retitles the window, BEL rings) and make git call a file binary (NUL). Bidirectional controls
reorder how a line is displayed without changing what it holds: the "Trojan Source" trick,
which GitHub flags as hidden Unicode. What a block holds or printed can contain any of them,
so every place that shows it says which ones are there instead of obeying them:

- `terminal`: the build's report and `./book review` print each as an escape (`\\x1b`);
- `marked_html`: the page shows a bidirectional control as a visible marker (`⟪U+202E⟫`),
  with its name as a tooltip (`BIDI_CLASS`), and `bidi_warning` says so above the box;
- the goldens store them escaped (`bookexec._internal.goldens.store`), with the same `escape`.
"""

from __future__ import annotations

import html
import re
import unicodedata

# Arabic letter mark, LRM/RLM, the embeddings and overrides, the isolates.
BIDI = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
# C0 but tab and newline, DEL, C1, the line and paragraph separators (str.splitlines reads
# them as line ends), the bidirectional controls, and lone surrogates (not UTF-8).
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029" + BIDI + "\ud800-\udfff]")
_BIDI = re.compile(f"[{BIDI}]")
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
# GitHub Actions' runner reads a line of the log as a workflow command when it starts with `::`
# once its leading whitespace is trimmed, and as an older one wherever `##[` appears; it cuts
# lines at a carriage return as at a line feed.
_WORKFLOW = re.compile(r"(?:^|(?<=[\r\n]))([^\S\r\n]*)::|##\[")
BIDI_CLASS = "executed-book-bidi"
WARNING_CLASS = "executed-book-bidi-warning"


def escape(char: str) -> str:
    """One character as a Python-style escape: `\\x1b`, `\\u202e`, `\\U0001f600`."""
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def terminal(text: str) -> str:
    """`text` safe to print: every unsafe character (all but tab and newline of the controls,
    the bidirectional ones) shown as its escape, never sent raw."""
    return UNSAFE.sub(lambda m: escape(m[0]), text)


def workflow_safe(text: str) -> str:
    """`text` as a CI log may hold it: a backslash before each `::` that would start a workflow
    command and before the `[` of each `##[`, so that no line of an output, a traceback or a
    diff can stop, forge or hide an annotation; everything else as it is."""
    return _WORKFLOW.sub(lambda m: "##\\[" if m[0] == "##[" else f"{m[1]}\\::", text)


def shown_html(text: str) -> str:
    """`text` as HTML a reviewer reads (a drift's diff, an error): HTML-escaped, each control
    character as its escape, each bidirectional control marked (`marked_html`)."""
    return marked_html(html.escape(_CONTROLS.sub(lambda m: escape(m[0]), text)))


def marker(char: str) -> str:
    """The visible stand-in for a bidirectional control: `⟪U+202E⟫`."""
    return f"\u27eaU+{ord(char):04X}\u27eb"


def visible(text: str) -> str:
    """`text` with each bidirectional control replaced by its marker: what the page shows."""
    return _BIDI.sub(lambda m: marker(m[0]), text)


def has_bidi(text: str) -> bool:
    """Whether `text` holds a bidirectional control."""
    return _BIDI.search(text) is not None


def marked_html(escaped: str) -> str:
    """Already escaped HTML text with each bidirectional control as a marked, titled element
    (only text: a control never sits inside a tag the engine made)."""

    def mark(found: re.Match[str]) -> str:
        name = unicodedata.name(found[0], "BIDIRECTIONAL CONTROL")
        title = html.escape(f"U+{ord(found[0]):04X} {name}: hidden Unicode that reorders text")
        return f'<span class="{BIDI_CLASS}" title="{title}">{marker(found[0])}</span>'

    return _BIDI.sub(mark, escaped)


def bidi_warning(what: str) -> str:
    """The line above a box that holds bidirectional controls, as GitHub warns of them."""
    return (
        f'<p class="{WARNING_CLASS}" role="note"><strong>Hidden Unicode:</strong> this {what} '
        "holds bidirectional control characters, which can make text read differently from "
        f"what it is; each is shown as {html.escape(marker(chr(0x202E)))} and its code.</p>"
    )
