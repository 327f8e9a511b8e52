"""An author's own normalisation rules: masks, applied to an output before its golden.

The engine's normalisers (`goldens.normalize`) replace only what varies between machines. What
varies between runs of the book's own code (a figure's date or random ids, a file listing's
sizes) is the author's to name: the plugin's `masks` option lists rules, each a regular
expression and its replacement, everywhere or only on some pages or blocks (globs). A mask
changes the text that is compared with the golden and stored in it, never what the reader
sees: the page shows the output as the block printed it.

A few outputs change on every run whoever writes the book: matplotlib's SVG (its date, and ids
hashed with a random salt) and plotly's HTML (its div's random UUID). The engine masks these
by default (`DEFAULTS`, before the author's rules; the plugin's `default_masks: false` turns
them off), each only in an output that is such a figure, so a markdown-exec book's check
build holds after its one changed line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import Any


@dataclass(frozen=True)
class Mask:
    """One rule: every match of `pattern` becomes `replace` (`re.sub`'s template, so `\\1`
    keeps a group), on the pages and blocks its globs name (none: every one)."""

    pattern: re.Pattern[str]
    replace: str
    pages: tuple[str, ...] = ()  # globs of pages under docs_dir, e.g. plots/*.md
    blocks: tuple[str, ...] = ()  # globs of block ids, e.g. figure-*
    # The engine's defaults only: an output this does not find is left alone by the rule.
    within: re.Pattern[str] | None = None

    def applies(self, page: str, block_id: str) -> bool:
        """Whether this rule masks the output of `block_id` on `page`."""
        return _any(page, self.pages) and _any(block_id, self.blocks)


# matplotlib's SVG: its metadata names it, or (metadata left out) the style it always writes.
_MATPLOTLIB = re.compile(
    r"<dc:title>Matplotlib v|\*\{stroke-linejoin: round; stroke-linecap: butt\}"
)
# plotly's `to_html`: the div a figure is drawn in.
_PLOTLY = re.compile(r'class="plotly-graph-div"')
DEFAULTS = (
    # The date and time the SVG was written.
    Mask(re.compile(r"<dc:date>[^<]*</dc:date>"), "<dc:date>(date)</dc:date>", within=_MATPLOTLIB),
    # Its ids (clip paths, markers, hatches, images, path collections): a random salt's hash,
    # where each is defined (id="...") and used (#...).
    Mask(
        re.compile(r'(id="|#)(C[0-9a-f]+_[0-9a-f]+_|Im_image|image|[hmp])[0-9a-f]{10}\b'),
        r"\1\2(id)",
        within=_MATPLOTLIB,
    ),
    # The figure's div id, a fresh UUID, quoted in the div and its script.
    Mask(
        re.compile(r"""(?<=["'])[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}(?=["'])"""),
        "(plotly-id)",
        within=_PLOTLY,
    ),
)


def _any(name: str, globs: tuple[str, ...]) -> bool:
    return not globs or any(fnmatchcase(name, glob) for glob in globs)


def problem(pattern: str, replace: str) -> str | None:
    """What is wrong with a rule in words, or None: a pattern that is no regular expression,
    or a replacement naming a group the pattern does not have."""
    try:
        compiled = re.compile(pattern)
    except re.error as error:
        return f"pattern {pattern!r} is not a regular expression (Python's re): {error}"
    try:
        compiled.sub(replace, "")  # parses the template at once, whether or not it matches
    except (re.error, IndexError) as error:
        return f"replace {replace!r} does not fit the pattern {pattern!r}: {error}"
    return None


def rules(options: Iterable[Mapping[str, Any]], defaults: bool = True) -> tuple[Mask, ...]:
    """The engine's `DEFAULTS` (unless `defaults` is off), then the masks the plugin's `masks`
    option lists, checked already (`problem`)."""
    return (DEFAULTS if defaults else ()) + tuple(
        Mask(
            re.compile(str(rule["pattern"])),
            str(rule["replace"]),
            tuple(str(glob) for glob in rule.get("pages") or ()),
            tuple(str(glob) for glob in rule.get("blocks") or ()),
        )
        for rule in options
    )


def apply(text: str, masks: Sequence[Mask], page: str, block_id: str) -> str:
    """The output with each rule that applies to this block replaced, in the listed order."""
    for mask in masks:
        if mask.applies(page, block_id) and (mask.within is None or mask.within.search(text)):
            text = mask.pattern.sub(mask.replace, text)
    return text
