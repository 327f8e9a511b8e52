"""Hover definitions: a book's glossary page is the single source of the terms a page marks.

The glossary is a Markdown definition list, one entry per term:

    **Term** (*alias*, Expansion) <!-- forms: terms -->
    :   The definition. See [where it is taught](chapter.md#block-id).

The words that mark an entry are its term, each alias, and the forms its entry declares in the
comment (a plural, say), exactly as written: a word is never inflected for it, so a verb or
a noun of another sense ("binds" for **Bind**, "exports" for **Export**) is no use of the term.

Each entry gets an anchor, the slug of its term (`glossary.md#jaxpr`). On every other page the
first use of each term in prose (not in code, headings, links, admonition titles) becomes a
link to its entry, followed by a card with the definition and a link to the entry's first
"See [...]" example ("taught in ..."); the plugin's own script shows the card on hover, focus
or tap, and without the script the term is a plain link. An author links a term
(`[the traced program](glossary.md#jaxpr)`) to mark it with other words or at another place,
and wraps a use in `<span data-no-term>...</span>` to leave it unmarked. A link to an anchor the
glossary does not have is an error naming page and line.

Pure functions over text: the engine (`bookexec._internal.engine`) reads the files and calls them.
"""

from __future__ import annotations

import html
import posixpath
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import markdown as markdown_lib

from bookexec._internal.discover.blocks import prose_lines
from bookexec._internal.errors import BookError

CLASS = "executed-book-term"  # the engine's classes on a page are named after the plugin
CARD = "executed-book-card"
ASSETS = ("assets/executed-book/glossary.css", "assets/executed-book/glossary.js")
_PLACEHOLDER = re.compile(r"<!--executed-book-card:([a-z0-9-]+)-->")

_TERM_LINE = re.compile(
    r"^\*\*(?P<term>[^*]+?)\*\*(?:\s*\((?P<aka>[^()]*)\))?(?P<forms>\s*" + r"<!--\s*forms:"
    r"(?P<words>[^<>]*?)-->)?\s*$"
)
_DEFINITION = re.compile(r"^:\s{1,4}(?P<text>.*)$")
_SEE = re.compile(r"\bSee\s+\[(?P<text>[^\]]+)\]\((?P<target>[^)\s]+)\)")
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
_LINK = re.compile(r"\]\((?P<target>[^)\s]+)(?:\s+\"[^\"]*\")?\)")
_REF_DEF = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*(?P<target>\S+)")
# A tag, or a whole element whose inside is never prose: read as one token, since a page's code
# boxes hold most of its tags and walking each one costs seconds over a book.
_TAG = re.compile(
    r"<(pre|script|style|svg|math|textarea)\b.*?</\1\s*>|<!--.*?-->|<[^>]*>",
    re.DOTALL | re.IGNORECASE,
)
_TAG_NAME = re.compile(r"^<\s*(/?)\s*([a-zA-Z][a-zA-Z0-9-]*)")
_ATTR_CLASS = re.compile(r"""\bclass\s*=\s*(?:"([^"]*)"|'([^']*)')""")
_ATTR_HREF = re.compile(r"""\bhref\s*=\s*(?:"([^"]*)"|'([^']*)')""")

# Elements whose text is never prose: code, headings, links, controls, embedded documents.
SKIPPED_TAGS = frozenset(
    [
        "a",
        "code",
        "pre",
        "kbd",
        "samp",
        "script",
        "style",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "button",
        "summary",
        "svg",
        "math",
        "textarea",
        "select",
        "option",
        "label",
        "title",
        "sup",
    ]
)
# Classes that mark an element's text as no prose either; `filename` is a code box's title, the
# snippet's name ("from callback" names a file, not a callback).
SKIPPED_CLASSES = (
    "admonition-title",
    "tabbed-labels",
    "executed-book-",
    "headerlink",
    "filename",
)
_VOID = frozenset(
    [
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "param",
        "source",
        "track",
        "wbr",
    ]
)


def slug(term: str) -> str:
    """The anchor of a term: lower case, markup dropped, runs of other characters one dash."""
    plain = re.sub(r"[`*_]", "", term).lower()
    return re.sub(r"[^a-z0-9]+", "-", plain).strip("-")


@dataclass(frozen=True)
class GlossaryEntry:
    """One glossary entry: its term as written, anchor, the words that mark it, its
    definition (Markdown) and where the glossary teaches it (link text, target) if it does."""

    term: str
    slug: str
    line: int
    names: tuple[str, ...]
    definition: str
    taught: tuple[str, str] | None = None


def _names(term: str, aka: str | None, forms: str | None = None) -> tuple[str, ...]:
    """The surface forms prose may use: the term, `Interpreter, jaxpr` read as `jaxpr
    interpreter`, each alias, each form the entry declares; none with code in it (code is
    never marked)."""
    found = []
    head, comma, tail = term.partition(",")
    head = head.strip()
    found.append(f"{tail.strip()} {head[:1].lower()}{head[1:]}" if comma else term)
    for alias in [*(aka or "").split(","), *(forms or "").split(",")]:
        found.append(alias.strip().strip("*_").strip())
    return tuple(name for name in found if name and "`" not in name)


def parse(text: str, page: str = "glossary.md", docs: str = "docs") -> list[GlossaryEntry]:
    """Every entry of the glossary page, in order; a term whose anchor another already has is an
    error naming both lines (the page under `docs`, the book's docs_dir as messages name it)."""
    lines = text.splitlines()
    entries: list[GlossaryEntry] = []
    seen: dict[str, int] = {}
    number = 0
    while number < len(lines):
        term_line = _TERM_LINE.match(lines[number])
        following = lines[number + 1] if number + 1 < len(lines) else ""
        opened = _DEFINITION.match(following)
        if not (term_line and opened):
            number += 1
            continue
        body = [opened["text"]]
        end = number + 2
        while end < len(lines) and (lines[end].startswith((" ", "\t")) or not lines[end].strip()):
            if not lines[end].strip() and not (end + 1 < len(lines) and lines[end + 1][:1] == " "):
                break
            body.append(lines[end].strip())
            end += 1
        term = term_line["term"].strip()
        anchor = slug(term)
        if anchor in seen:
            raise BookError(
                f"{docs}/{page}:{number + 1}: glossary term '{term}' has the anchor '#{anchor}' "
                f"that the term on line {seen[anchor]} has already"
            )
        seen[anchor] = number + 1
        definition = " ".join(part for part in body if part)
        see = _SEE.search(definition)
        entries.append(
            GlossaryEntry(
                term=term,
                slug=anchor,
                line=number + 1,
                names=_names(term, term_line["aka"], term_line["words"]),
                definition=definition,
                taught=(see["text"], see["target"]) if see else None,
            )
        )
        number = end
    return entries


def anchored(text: str, entries: Iterable[GlossaryEntry]) -> str:
    """The glossary's Markdown with an anchor (raw HTML, which MkDocs' link validation reads
    without any extension) at the start of each entry's term line, and an index of the terms,
    each a link to its entry, above the first: a term is reached without scrolling."""
    entries = list(entries)
    lines = text.splitlines(keepends=True)
    for entry in entries:
        line = lines[entry.line - 1]
        found = _TERM_LINE.match(line.rstrip("\n"))
        if found and found["forms"]:  # the engine's, not the reader's: the comment goes
            line = line[: found.start("forms")] + line[found.end("forms") :]
        lines[entry.line - 1] = (
            f'<a id="{entry.slug}" class="executed-book-glossary-anchor"></a>' + line
        )
    if entries:
        first = entries[0].line - 1
        lines[first] = index_of_terms(entries) + lines[first]
    return "".join(lines)


def index_of_terms(entries: Iterable[GlossaryEntry]) -> str:
    """The terms as one paragraph of links, in the glossary's order, closed by a blank line."""
    links = " · ".join(f"[{entry.term}](#{entry.slug})" for entry in entries)
    return f"**Terms:** {links}\n\n"


def _pattern_of(name: str) -> str:
    """A name as a pattern: any white space between its words, and no other form (a plural is
    a form the entry declares); case-insensitive unless the name has capitals past its first
    letter (JVP, PartitionSpec)."""
    body = r"\s+".join(re.escape(word) for word in name.split())
    exact = any(char.isupper() for char in name[1:])
    return body if exact else f"(?i:{body})"


@dataclass
class Matcher:
    """Finds the first use of each term in a text, the longest name first. A phrase of `ignore`
    is never a use (a "cache key" is no PRNG key), but a longer name holding it still is."""

    entries: list[GlossaryEntry]
    ignore: tuple[str, ...] = ()
    pattern: re.Pattern[str] = field(init=False)
    slugs: dict[str, str] = field(init=False)  # group name -> entry slug ("": ignored)

    def __post_init__(self) -> None:
        # An ignored phrase first, before a name as long: the alternation takes the first.
        named = [(phrase, "") for phrase in self.ignore if phrase.strip()]
        named += [(name, entry.slug) for entry in self.entries for name in entry.names]
        named.sort(key=lambda pair: -len(pair[0]))
        self.slugs = {f"t{i}": anchor for i, (_, anchor) in enumerate(named)}
        alternatives = "|".join(
            f"(?P<t{i}>{_pattern_of(name)})" for i, (name, _) in enumerate(named)
        )
        # No mark inside a word: "keyword" is no use of "key", nor "re-key".
        self.pattern = re.compile(rf"(?<![\w-])(?:{alternatives or '(?!)'})(?![\w-])")

    def uses(self, text: str, used: set[str]) -> list[tuple[int, int, str]]:
        """(start, end, slug) of each first use in `text` of a term not in `used` (which it
        updates)."""
        found = []
        for match in self.pattern.finditer(text):
            anchor = self.slugs[match.lastgroup or ""]
            if anchor and anchor not in used:
                used.add(anchor)
                found.append((match.start(), match.end(), anchor))
        return found


@dataclass(frozen=True)
class Link:
    """A link of a page's Markdown to a glossary anchor: its line and anchor."""

    line: int
    anchor: str


def resolve(target: str, page: str) -> str:
    """A link's path, relative to `page`, as a path under the docs folder."""
    return posixpath.normpath(posixpath.join(posixpath.dirname(page), target))


def glossary_links(markdown: str, page: str, glossary: str, offset: int = 0) -> list[Link]:
    """Every link of the page's prose (not its code) to an anchor of the glossary page.
    `offset`: lines of front matter above the Markdown, so lines count from the file's top."""
    found = []
    for number, line in prose_lines(markdown.splitlines(), start=1 + offset):
        prose = _CODE_SPAN.sub("", line)
        targets = [m["target"] for m in _LINK.finditer(prose)]
        targets += [m["target"] for m in _REF_DEF.finditer(prose)]
        for target in targets:
            path, hash_, anchor = target.partition("#")
            if hash_ and path and resolve(path, page) == glossary:
                found.append(Link(number, anchor))
    return found


def missing_anchors(
    links: Iterable[Link], entries: Iterable[GlossaryEntry], page: str, docs: str = "docs"
) -> list[str]:
    """One message per link to an anchor no entry has, naming page (under `docs`) and line."""
    known = {entry.slug for entry in entries}
    return [
        f"{docs}/{page}:{link.line}: a link to the glossary's '#{link.anchor}', which no entry "
        f"has (an entry's anchor is its term as a slug, e.g. '#{next(iter(sorted(known)), '')}')"
        for link in links
        if link.anchor not in known
    ]


def relative_url(url: str, base: str) -> str:
    """`url` (a site URL such as 'glossary/') as seen from the page at `base`."""
    base_dir = base if base.endswith("/") else posixpath.dirname(base) + "/"
    relative = posixpath.relpath("/" + url, "/" + base_dir)
    if url.endswith("/") and relative != ".":
        relative += "/"
    return "./" if relative == "." else relative


def _open_tag(token: str) -> tuple[str, bool, bool]:
    """(tag name, is a closing tag, starts a skipped context) of a tag token."""
    found = _TAG_NAME.match(token)
    if not found:
        return "", False, False
    name, closing = found[2].lower(), bool(found[1])
    classes = _ATTR_CLASS.search(token)
    class_text = (classes[1] or classes[2] or "") if classes else ""
    skipped = (
        name in SKIPPED_TAGS
        or any(marker in class_text for marker in SKIPPED_CLASSES)
        or "data-no-term" in token
    )
    return name, closing, skipped


def mark(page_html: str, matcher: Matcher, glossary_url: str) -> tuple[str, list[str]]:
    """The page's HTML with the first use of each term marked, and the anchors marked in order.

    A link the author made to an entry (`href` = `glossary_url#anchor`) is the mark of its
    term; other terms are marked at their first use in prose. Each mark is followed by a
    placeholder the card replaces (`cards`), after the search index has read the page."""
    known = {entry.slug for entry in matcher.entries}
    prefix = glossary_url + "#"
    linked = {
        href[len(prefix) :]
        for found in _ATTR_HREF.finditer(page_html)
        if (href := found[1] or found[2] or "").startswith(prefix)
    } & known
    used = set(linked)  # an author's link marks its term there, never a use before it
    carded: set[str] = set()
    out: list[str] = []
    stack: list[tuple[str, bool]] = []  # open elements, each with whether it skips
    closing_link: str | None = None  # the anchor of the author's link being read
    last = 0
    for token in _TAG.finditer(page_html):
        text = page_html[last : token.start()]
        last = token.end()
        if text.strip() and not any(skip for _, skip in stack):
            text = _mark_text(text, matcher, used, glossary_url, carded)
        out.append(text)
        tag = token[0]
        name, closing, skipped = _open_tag(tag)
        if not name or token[1]:  # a comment, or a whole element that is no prose
            out.append(tag)
            continue
        if closing:
            out.append(tag)
            _close(stack, name)
            if name == "a" and closing_link is not None:
                out.append(f"<!--executed-book-card:{closing_link}-->")
                closing_link = None
            continue
        anchor = _authors_mark(tag, name, prefix, linked - carded)
        if anchor is not None:
            carded.add(anchor)
            closing_link = anchor
            tag = _with_term_class(tag, anchor)
        out.append(tag)
        if name not in _VOID and not tag.endswith("/>"):
            stack.append((name, skipped))
    tail = page_html[last:]
    skipping = any(skip for _, skip in stack)
    out.append(tail if skipping else _mark_text(tail, matcher, used, glossary_url, carded))
    return "".join(out), sorted(carded)


def _close(stack: list[tuple[str, bool]], name: str) -> None:
    """A closing tag ends the innermost open element of its name, and those inside it."""
    for depth in range(len(stack) - 1, -1, -1):
        if stack[depth][0] == name:
            del stack[depth:]
            return


def _authors_mark(tag: str, name: str, prefix: str, unmarked: set[str]) -> str | None:
    """The anchor of an author's link to an entry (exactly `prefix` and an anchor among
    `unmarked`) that the tag opens, else None."""
    href = _ATTR_HREF.search(tag) if name == "a" else None
    if href is None:
        return None
    target = href[1] or href[2] or ""
    anchor = target.removeprefix(prefix)
    return anchor if anchor in unmarked and target == prefix + anchor else None


def _with_term_class(tag: str, anchor: str) -> str:
    """An author's `<a ...>` to an entry, made the mark of its term."""
    if (classes := _ATTR_CLASS.search(tag)) is not None:
        joined = f'class="{(classes[1] or classes[2] or "")} {CLASS}"'
        tag = tag[: classes.start()] + joined + tag[classes.end() :]
    else:
        tag = tag[:-1] + f' class="{CLASS}">'
    return tag[:-1] + f" {_term_attributes(anchor)}>"


def _term_attributes(anchor: str) -> str:
    return f'data-term="{anchor}" aria-describedby="{CARD}-{anchor}"'


def _mark_text(
    text: str, matcher: Matcher, used: set[str], glossary_url: str, carded: set[str]
) -> str:
    if not text.strip():
        return text
    pieces, last = [], 0
    for start, end, anchor in matcher.uses(text, used):
        carded.add(anchor)
        pieces.append(text[last:start])
        pieces.append(
            f'<a class="{CLASS}" href="{glossary_url}#{anchor}" {_term_attributes(anchor)}>'
            f"{text[start:end]}</a><!--executed-book-card:{anchor}-->"
        )
        last = end
    pieces.append(text[last:])
    return "".join(pieces)


# (path under docs, as the glossary links it) -> (its URL relative to the page, its title), or
# None for a path that is no page of the site
PageOf = Callable[[str], tuple[str, str] | None]


def card(entry: GlossaryEntry, glossary: str, page_of: PageOf, glossary_url: str) -> str:
    """The card of one entry as a page shows it: term, definition, "taught in" link. Links of
    the definition are made relative to the page that shows the card."""

    def link_to(target: str) -> tuple[str, str] | None:
        path, hash_, anchor = target.partition("#")
        if "://" in target or target.startswith(("/", "#", "mailto:")):
            return (target, "")
        found = page_of(resolve(path, glossary)) if path else None
        if found is None:
            return None
        return (found[0] + (f"#{anchor}" if hash_ else ""), found[1])

    rendered = markdown_lib.markdown(entry.definition)
    rendered = re.sub(r"^<p>|</p>$", "", rendered.strip())
    rendered = re.sub(r"</p>\s*<p>", "<br>", rendered)

    def relink(found: re.Match[str]) -> str:
        target = link_to(html.unescape(found[1]))
        return f'href="{html.escape(target[0]) if target else html.escape(found[1])}"'

    rendered = re.sub(r'href="([^"]*)"', relink, rendered)
    taught = link_to(entry.taught[1]) if entry.taught else None
    if taught is not None and entry.taught is not None:
        where, title = taught[0], taught[1] or entry.taught[0]
    else:
        where, title = f"{glossary_url}#{entry.slug}", "the glossary"
    term = html.escape(re.sub(r"[`*]", "", entry.term))
    return (
        f'<span class="{CARD}" id="{CARD}-{entry.slug}" role="tooltip" hidden>'
        f'<span class="{CARD}-term">{term}</span> '
        f'<span class="{CARD}-text">{rendered}</span> '
        f'<a class="{CARD}-taught" href="{html.escape(where)}">taught in '
        f"{html.escape(title)} &rarr;</a></span>"
    )


def with_cards(output: str, cards: dict[str, str]) -> str:
    """The page's final HTML with each placeholder replaced by its card."""
    return _PLACEHOLDER.sub(lambda found: cards.get(found[1], ""), output)
