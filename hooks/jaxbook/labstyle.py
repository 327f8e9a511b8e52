"""A lab page's style, shared: one stylesheet for every lab instead of a copy in each page.

mkdocs-jupyter puts JupyterLab's whole stylesheet (and the notebook's Pygments style) inline in
every lab page it renders: 580 KiB of CSS a page, most of it for widgets no lab shows. The
book takes those `<style>` blocks out of each lab page, links one file in their place, and
writes that file once a build with only the rules that can match a lab's markup (a rule none
of whose selectors names only classes some lab uses is dropped, and so is a custom property no
kept rule reads).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# Where the shared stylesheet is written in the site.
SITE_PATH = "assets/book/lab.css"
_STYLE = re.compile(r'<style type="text/css">(.*?)</style>', re.S)
_CLASS_ATTR = re.compile(r'class="([^"]*)"')
_CLASS = re.compile(r"\.(-?[_a-zA-Z][\w-]*)")
_VAR_USE = re.compile(r"var\(\s*(--[\w-]+)")
_RULE = re.compile(r"([^{}]*)\{([^{}]*)\}")
_COMMENT = re.compile(r"/\*.*?\*/", re.S)


def take_styles(content: str) -> tuple[str, list[str]]:
    """The page's content without its inline stylesheets, and those stylesheets."""
    sheets = [m.group(1) for m in _STYLE.finditer(content)]
    return _STYLE.sub("", content), sheets


def classes(content: str) -> set[str]:
    """Every class a page's markup names."""
    return {name for attr in _CLASS_ATTR.findall(content) for name in attr.split()}


def _blocks(css: str) -> Iterable[tuple[str, str]]:
    """Top-level (prelude, body) pairs of a stylesheet; a statement without a body (`@import`,
    `@charset`) comes with the body None-like empty and its text in the prelude."""
    depth, start, prelude = 0, 0, ""
    i = 0
    while i < len(css):
        c = css[i]
        if c in "\"'":  # a string: its braces are text
            end = css.find(c, i + 1)
            i = len(css) if end < 0 else end + 1
            continue
        if c == "{":
            if depth == 0:
                prelude, start = css[start:i].strip(), i + 1
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                yield prelude, css[start:i]
                start = i + 1
        elif c == ";" and depth == 0:
            yield css[start : i + 1].strip(), ""
            start = i + 1
        i += 1


def _selectors(prelude: str) -> list[str]:
    """A rule's selectors: split at its commas outside parentheses (`:is(h1, h2)`)."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(prelude):
        depth += (c == "(") - (c == ")")
        if c == "," and depth == 0:
            parts.append(prelude[start:i])
            start = i + 1
    return [*parts, prelude[start:]]


def _kept_selectors(prelude: str, used: set[str]) -> str:
    # Only the classes outside parentheses must be used: `:not(.x)` matches where .x is
    # missing, and `:is(.x, .y)` where either is there.
    kept = [s for s in _selectors(prelude) if set(_CLASS.findall(_outside(s))) <= used]
    return ",".join(kept)


def _outside(selector: str) -> str:
    """The selector without what its parentheses hold."""
    out, depth = [], 0
    for c in selector:
        depth += c == "("
        if depth == 0:
            out.append(c)
        depth -= c == ")"
    return "".join(out)


def _prune(css: str, used: set[str]) -> str:
    out = []
    for prelude, body in _blocks(css):
        if not body and not prelude.startswith("@"):
            continue
        if not body:
            out.append(prelude)
        elif prelude.startswith(("@media", "@supports", "@layer")):
            inner = _prune(body, used)
            if inner:
                out.append(f"{prelude}{{{inner}}}")
        elif prelude.startswith("@"):
            out.append(f"{prelude}{{{body}}}")  # @font-face, @keyframes: kept whole
        else:
            selectors = _kept_selectors(prelude, used)
            if selectors:
                out.append(f"{selectors}{{{body}}}")
    return "\n".join(out)


def _declarations(body: str) -> list[str]:
    """A rule's declarations, split at semicolons outside parentheses (a data URL has some)."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(body):
        depth += c == "("
        depth -= c == ")"
        if c == ";" and depth == 0:
            parts.append(body[start:i])
            start = i + 1
    parts.append(body[start:])
    return [p for p in parts if p.strip()]


def _drop_unread_properties(css: str) -> str:
    """Drop each custom property no declaration reads (`var(--name)`), until none is left."""
    while True:
        css, dropped = _without(css, set(_VAR_USE.findall(css)))
        if not dropped:
            return css


def _without(css: str, read: set[str]) -> tuple[str, bool]:
    """`css` without the custom properties outside `read`; whether it dropped any."""
    dropped = False

    def keep(match: re.Match[str]) -> str:
        nonlocal dropped
        kept = []
        for decl in _declarations(match.group(2)):
            name = decl.split(":", 1)[0].strip()
            if name.startswith("--") and name not in read:
                dropped = True
            else:
                kept.append(decl)
        return f"{match.group(1)}{{{';'.join(kept)}}}"

    return _RULE.sub(keep, css), dropped


def shared_sheet(sheets: Iterable[str], used: set[str]) -> str:
    """One stylesheet of the labs' inline ones, each once, with only what the labs can use."""
    css = _COMMENT.sub("", "\n".join(dict.fromkeys(sheets)))
    return _drop_unread_properties(_prune(css, used)) + "\n"
