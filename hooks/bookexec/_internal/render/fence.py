"""The formatter for executed Python: superfences finds the fence, markdown-exec's validator
reads its options, the book runs it and lays it out.

The engine registers it as a custom superfences fence (`bookexec.guard.register`), bound to
the current build. It returns the block's HTML made by `bookexec._internal.render.layout`, never
handing what a block printed or holds to Markdown: markdown-exec's own layout would.
"""

from __future__ import annotations

import ast
import builtins
import html
import re
from contextlib import AbstractContextManager
from pathlib import Path, PurePosixPath
from typing import Any, Protocol

from markupsafe import Markup

from bookexec._internal.discover.blocks import Block
from bookexec._internal.escapes import bidi_warning, has_bidi, shown_html
from bookexec._internal.goldens import images, measured
from bookexec._internal.goldens.compare import Comparison
from bookexec._internal.goldens.report import Failure
from bookexec._internal.goldens.store import BUILDERS, update_command
from bookexec._internal.privacy import Masker
from bookexec._internal.render.layout import DEFAULT_TABS, Look, block_html

DEFAULT_SOURCE = "block"


class BlockSource(Protocol):
    """What the fence asks of the build's render stage (`bookexec._internal.pipeline.render`)."""

    root: Path  # the book's root, which a drift's diff names paths from
    shows_problems: bool  # drift shown at the block (under `mkdocs serve`)
    # Under `mkdocs serve`: the browser review's address and token, which the drift shown at
    # a block posts its accept or keep to (`serve.browser_review`); None elsewhere.
    review: tuple[str, str] | None
    masker: Masker  # the build's secrets, masked in the source a block shows
    launcher: str  # the book's command line (`./book`), whose commands a note names

    @property
    def pending_blocks(self) -> set[tuple[str, str]]:
        """(page, block id) of the blocks shown from their goldens while they run."""
        ...

    @property
    def pending_new(self) -> set[tuple[str, str]]:
        """Of those, the blocks with no golden yet: they have no recorded output to show."""
        ...

    def output_for(
        self, block_id: str, code: str
    ) -> tuple[Block, str, Comparison | None, Failure | None]:
        """The block of the page being rendered, its shown output, comparison and failure."""
        ...

    def result_language(self, output: str) -> str:
        """The Pygments language of an output's fence (the runtime's)."""
        ...

    def laid_out(self, block: Block, output: str, look: Look) -> None:
        """The block's boxes were made: the page check expects them."""
        ...

    def printed_by(self, block: Block) -> AbstractContextManager[None]:
        """While what `block` printed is rendered as Markdown: a fence in it is refused."""
        ...

    def first_time(self, said: str) -> bool:
        """Whether the page being rendered has not said `said` yet: a note the same for every
        block (that its timings are one run's) is said once a page, at its first block."""
        ...


def format_python(current: BlockSource, **options: Any) -> Markup:
    """Render one executed block of the page `current` (the render stage) is rendering."""
    extra = dict(options.get("extra", {}))
    block, output, comparison, failure = current.output_for(options.get("id", ""), options["code"])
    # A block that printed nothing shows its source alone, not an empty output box.
    source = options.get("source") or (DEFAULT_SOURCE if output else "above")
    result = options.get("result") or (current.result_language(output) if output else "")
    look = Look(
        source=source,
        result=result or "text",
        tabs=tuple(options.get("tabs") or DEFAULT_TABS),
        title=extra.get("title", "" if block.inline else box_title(block)),
        hl_lines=extra.get("hl_lines", ""),
        linenums=extra.get("linenums", ""),
    )
    # The reader sees the snippet without its hidden lines (`bookexec._internal.discover.hidden`),
    # masked before it is highlighted: highlighting could split a secret.
    code = current.masker.mask(block.shown)
    rendered = block_html(options["md"], block.id, code, output, look)
    current.laid_out(block, output, look)  # what the page verifier expects to find
    rendered += block_notes(current, block, output, comparison, failure)
    return Markup(rendered)  # every part is escaped, or made by the engine


def box_title(block: Block) -> str:
    """The name a reader would save the code under (the repository's folders, `snippets/`,
    mean nothing to them); a block that uses a name only an earlier block of the page defines
    would fail saved alone, so its title says what it is and that it continues the page."""
    path = PurePosixPath(block.snippet)
    if not free_names(block.shown):
        return path.name
    return f"{path.stem.replace('_', ' ')}, continuing the page"


def free_names(code: str) -> set[str]:
    """The names `code` reads that it neither binds nor imports nor finds among the builtins
    (scopes are not told apart: a name bound anywhere in the block counts as bound)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return set()
    bound: set[str] = set()
    read: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (read if isinstance(node.ctx, ast.Load) else bound).add(node.id)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            bound.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.ExceptHandler | ast.MatchAs | ast.MatchStar) and node.name:
            bound.add(node.name)
    return read - bound - set(dir(builtins))


def block_notes(
    current: BlockSource,
    block: Block,
    output: str,
    comparison: Comparison | None,
    failure: Failure | None,
) -> str:
    """What the engine says under a block: its failure, its drift under serve, and that it
    shows its golden while it runs."""
    said = measured_note(output)
    if said and not current.first_time(said):
        said = ""
    if failure is not None:  # the report at the end of the build lists it too
        said += failure_box(failure.message)
    elif current.shows_problems and comparison is not None and comparison.status != "ok":
        said += drift_warning(comparison, current.root, current.review, current.launcher)
    if output is not None and (block.page, block.id) in current.pending_blocks:
        said += pending_note(block.id, new=(block.page, block.id) in current.pending_new)
    return said


def measured_note(output: str) -> str:
    """Under an output that shows measured values: that they are the book's measurement, not
    what the code shown prints (`pipeline.judge.shown`); each value marked as in the box."""
    note = getattr(output, "note", None)
    if not note:
        return ""
    sentence, values = note
    if "{}" not in sentence:  # the values are in the box, marked: the note does not repeat them
        return f'<p class="executed-book-measured-note"><small>{html.escape(sentence)}</small></p>'
    marked = [measured.html_mark(html.escape(value, quote=False)) for value in values]
    named = ", ".join(marked[:-1]) + (" and " if len(marked) > 1 else "") + marked[-1]
    before, _, after = sentence.partition("{}")
    return (
        '<p class="executed-book-measured-note"><small>'
        f"{html.escape(before)}{named}{html.escape(after)}</small></p>"
    )


def failure_box(message: str) -> str:
    """An error admonition at a block that raised, timed out or flooded: what the block
    printed in it is shown, never obeyed (`bookexec._internal.escapes`)."""
    warning = bidi_warning("error") if has_bidi(message) else ""
    return (
        '<div class="admonition failure executed-book-failure">'
        f'<p class="admonition-title">This block failed</p>{warning}'
        f"<pre><code>{shown_html(message)}</code></pre></div>"
    )


def verify_box(page_html: str, problems: list[str]) -> str:
    """Under `mkdocs serve`: what the page check found, at the top of the page's content."""
    items = "".join(f"<li>{html.escape(problem)}</li>" for problem in problems)
    box = (
        '<div class="admonition failure executed-book-page-check">'
        '<p class="admonition-title">This page does not show its blocks as they ran</p>'
        f"<ul>{items}</ul></div>"
    )
    marker = '<article class="md-content__inner md-typeset">'
    if marker in page_html:
        return page_html.replace(marker, marker + box, 1)
    head, body, rest = page_html.partition("<body")
    if not body:
        return box + page_html
    opened, close, after = rest.partition(">")
    return head + body + opened + close + box + after


NOT_RENDERED = (
    "no fence on the page was rendered as this block (is the fence indented, or inside an "
    "element Markdown does not parse?); the page is withheld, since it may show the fence raw"
)
_CONTENT = re.compile(
    r'(<article class="md-content__inner md-typeset">).*(</article>)|(<body[^>]*>).*(</body>)',
    re.DOTALL,
)


def withheld(page_html: str, problems: list[str]) -> str:
    """A page that did not render its executed blocks, written without its content: it could
    show a fence raw, with its hidden lines. The box says why; the build fails on it too."""
    items = "".join(f"<li>{html.escape(problem)}</li>" for problem in problems)
    box = (
        '<div class="admonition failure executed-book-page-check">'
        '<p class="admonition-title">This page was not written</p>'
        f"<ul>{items}</ul></div>"
    )
    found = _CONTENT.search(page_html)
    if found is None:
        return box
    opened, closed = (found[1], found[2]) if found[1] else (found[3], found[4])
    return page_html[: found.start()] + opened + box + closed + page_html[found.end() :]


def pending_note(block_id: str, new: bool = False) -> str:
    """Under `mkdocs serve`, while the block runs in the background (serve.background): one
    small line under the golden's output, not a box, since most blocks of a first page carry
    it at once. Styled inline: the engine's marker needs no stylesheet of the book's. `new`:
    the block has no golden, so nothing recorded is shown."""
    if new:
        title, words = "The block has no golden yet and is running now", "no golden yet, running"
    else:
        title, words = (
            "This is the output the golden recorded. The block is running now",
            ("recorded output, being checked"),
        )
    return (
        f'<p class="executed-book-pending" data-block="{html.escape(block_id)}" '
        f'style="font-size:0.7em;opacity:0.7;margin:-0.8em 0 1em" title="{title}; the page '
        f'reloads with its live output, or its drift, when it is done.">&#9679; {words}</p>'
    )


def drift_warning(
    comparison: Comparison,
    root: Path,
    review: tuple[str, str] | None = None,
    launcher: str = "",
) -> str:
    """At the block, for `mkdocs serve`: a warning with the diff, or for cosmetic drift (the
    same program, re-lettered) a one-line note. The server keeps running. With `review` (the
    browser review's address and token), it also has the buttons that accept the new output
    or keep the golden (`review_controls`). A new block names the book's update command
    (`launcher`: its command line, or none)."""
    kind, drift = comparison.kind, comparison.drift()
    block_id = html.escape(comparison.block_id)
    attrs = f'data-block="{block_id}"' + (_review_attrs(comparison, review) if review else "")
    controls = review_controls() if review else ""
    if kind == "cosmetic" and drift is not None:
        why = drift.headline().removeprefix("cosmetic: ")
        accepts = html.escape(
            f"{launcher} review --accept-cosmetic"
            if launcher and launcher not in BUILDERS
            else update_command(launcher, f"{comparison.page}#{comparison.block_id}")
        )
        note = (
            f"<small>Block '{block_id}': cosmetic drift from its golden "
            f"({shown_html(why)}); <code>{accepts}</code> accepts it.</small>"
        )
        if not controls:
            return f'<p class="executed-book-drift-note" {attrs}>{note}</p>'
        return f'<div class="executed-book-drift-note" {attrs}><p>{note}</p>{controls}</div>'
    if comparison.status == "new":
        title = f"No golden yet for block '{comparison.block_id}'"
        command = update_command(launcher, f"{comparison.page}#{comparison.block_id}")
        body = f"Run <code>{html.escape(command)}</code> to write it."
    else:
        title = f"Block '{comparison.block_id}' drifted from its golden ({kind})"
        # What the block printed is shown, never obeyed: controls escaped, bidi marked.
        notes, diff = comparison.notes(), comparison.diff(root)
        reasons = "".join(f"<li>{shown_html(reason)}</li>" for reason in notes)
        body = f"<ul>{reasons}</ul>" if reasons else ""
        drift = comparison.drift()
        aligned = drift.diff if drift else ""
        if aligned:  # the aligned equation diff of a structural jaxpr drift
            body += f"<pre><code>{shown_html(aligned)}</code></pre>"
        body += f"<pre><code>{shown_html(diff)}</code></pre>" if diff else ""  # images alone
        body += "".join(images.pair(i.name, i.old, i.new) for i in comparison.images if i.changed)
        if has_bidi("".join([*notes, aligned, diff])):
            body = bidi_warning("drift") + body
    return (
        f'<div class="admonition warning executed-book-drift" {attrs}>'
        f'<p class="admonition-title">{html.escape(title)}</p>{body}{controls}</div>'
    )


def _review_attrs(comparison: Comparison, review: tuple[str, str]) -> str:
    url, token = review
    values = {
        "page": comparison.page,
        "review-url": url,
        "review-token": token,
    }
    return "".join(f' data-{name}="{html.escape(value)}"' for name, value in values.items())


# Posts the answer of the button clicked to the browser review (the element's data-review-url),
# with its page, block and token; after an accept the page reloads once rebuilt (live reload,
# which `mkdocs serve` injects as `livereload`), or by itself without live reload.
_REVIEW_SCRIPT = """(function (box) {
  var status = box.querySelector(".executed-book-review-status");
  box.querySelectorAll("button[data-answer]").forEach(function (button) {
    button.addEventListener("click", function () {
      var answer = button.getAttribute("data-answer");
      status.textContent = answer + "\u2026";
      fetch(box.getAttribute("data-review-url") + "/" + answer, {
        method: "POST",
        headers: {"Content-Type": "application/json"},
        body: JSON.stringify({
          page: box.getAttribute("data-page"),
          block: box.getAttribute("data-block"),
          token: box.getAttribute("data-review-token")
        })
      }).then(function (response) {
        return response.json().then(function (said) {
          status.textContent = said.message;
          box.setAttribute("data-review-answer", response.ok ? answer : "refused");
          if (response.ok && answer === "accept" && typeof livereload !== "function") {
            setTimeout(function () { location.reload(); }, 1000);
          }
        });
      }).catch(function (error) {
        status.textContent = answer + " failed: " + error;
        box.setAttribute("data-review-answer", "failed");
      });
    });
  });
})(document.currentScript.parentElement);
"""


def review_controls() -> str:
    """Under `mkdocs serve`, in a drift warning: "accept" (write the new golden) and "keep"
    (leave it), a status line, and the script that posts the answer."""
    return (
        '<p class="executed-book-review">'
        '<button type="button" class="md-button" data-answer="accept" '
        'title="write this build\'s output as the new golden">accept</button> '
        '<button type="button" class="md-button" data-answer="keep" '
        'title="leave the golden; change the snippet instead">keep</button> '
        '<span class="executed-book-review-status" role="status"></span></p>'
        f"<script>{_REVIEW_SCRIPT}</script>"
    )


def page_summary(failures: list[Failure], drifted: list[Comparison], launcher: str = "") -> str:
    """One note at the top of a served page that has failures or drift (`launcher`: the
    book's command line, or its builder, whose build the note names)."""
    own = launcher and launcher not in BUILDERS
    build = f"{launcher} build" if own else f"{launcher or BUILDERS[0]} build --strict"
    kinds = [c.kind for c in drifted]
    counts = [f"{len(failures)} failed"] if failures else []
    counts += [
        f"{kinds.count(k)} {k}" for k in ("structural", "text", "new", "cosmetic") if k in kinds
    ]
    # A draft's blocks have no goldens to differ from.
    only_new = not failures and set(kinds) == {"new"}
    title = (
        "Blocks of this page have no golden yet"
        if only_new
        else "This page differs from its goldens"
    )
    return (
        '<div class="admonition warning executed-book-page-drift">'
        f'<p class="admonition-title">{title}</p>'
        f"<p>{html.escape(', '.join(counts))}: see the notes at the blocks below, or run "
        f"<code>{html.escape(build)}</code> for the full report.</p></div>\n"
    )


_ARTICLE = re.compile(r"<article\b[^>]*>|<body\b[^>]*>")


def strict_warnings(page: str, warnings: list[str]) -> str:
    """A served page with the warnings `mkdocs build --strict` would fail on, at the top of
    its content (the serve keeps building; the strict build does not)."""
    items = "".join(f"<li><pre>{html.escape(w)}</pre></li>" for w in warnings)
    box = (
        '<div class="admonition warning executed-book-strict-warnings">'
        '<p class="admonition-title">The strict build fails on this</p>'
        f"<p>The server goes on; <code>mkdocs build --strict</code> stops at:</p><ul>{items}"
        "</ul></div>\n"
    )
    found = _ARTICLE.search(page)
    at = found.end() if found else 0
    return page[:at] + box + page[at:]


_FENCE_ID = re.compile(r'^(\s*)(?:`{3,}|~{3,})\s*python\b.*\bid="([^"]+)"')


def anchor_blocks(markdown: str, block_ids: set[str]) -> str:
    """Put an empty element with the id `block-<id>` before each executed fence.

    It is raw HTML in the page's markdown, not in the fence's output, so MkDocs sees the id
    when it validates links: the glossary and the FAQ link to the example itself.
    """
    lines = markdown.splitlines()
    out: list[str] = []
    for line in lines:
        found = _FENCE_ID.match(line)
        if found and found[2] in block_ids:
            indent = found[1]
            out += [
                f'{indent}<div class="executed-book-anchor" id="block-{found[2]}"></div>',
                indent,
            ]
        out.append(line)
    return "\n".join(out) + ("\n" if markdown.endswith("\n") else "")
