"""The render stage: what the engine's fence shows for each block, the values prose and
figures quote, and the check of each page's final HTML.

The fence (`bookexec._internal.render.fence`) sees this stage only through its `BlockSource`
protocol.
"""

from __future__ import annotations

import contextlib
import html
import logging
import re
from collections.abc import Callable, Iterator
from typing import Any

from markupsafe import Markup

from bookexec._internal.context import BookContext
from bookexec._internal.discover.blocks import ANYWHERE, Block, printed_name, scan_page
from bookexec._internal.errors import BookError
from bookexec._internal.execute.runtime import Runtime
from bookexec._internal.goldens import measured
from bookexec._internal.goldens.compare import Comparison
from bookexec._internal.goldens.measured import Fact
from bookexec._internal.goldens.report import Failure
from bookexec._internal.pipeline.judge import Judge
from bookexec._internal.pipeline.plan import Plan
from bookexec._internal.pipeline.run import recorded
from bookexec._internal.privacy import Masker
from bookexec._internal.render import figures, prose, stepper_html, verify
from bookexec._internal.render.fence import NOT_RENDERED, failure_box, verify_box, withheld
from bookexec._internal.render.layout import Look

log = logging.getLogger("mkdocs.plugins.bookexec")


class UnplannedFence(BookError):
    """Superfences handed the engine a fence its scan did not plan as a block: refused, and
    recorded as the page's failure before it is raised."""


_CAUSE = 2000  # characters of an engine error's message a report shows


def clipped(text: str) -> str:
    """An error's text as a report shows it: a damaged value in it may be any size."""
    if len(text) <= _CAUSE:
        return text
    return f"{text[:_CAUSE]}... ({len(text) - _CAUSE} more characters)"


_TAG = re.compile(r"<[^>]*>")  # an element's tag: what a reader reads is the rest


# A value as another release printed it (`{{fact:...@release}}`): page, block id, release.
OtherRelease = Callable[[str, str, str], dict[str, Fact] | None]


class RenderStage:
    """One build's pages as MkDocs renders them, one at a time, in any order."""

    def __init__(
        self,
        context: BookContext,
        plan: Plan,
        judge: Judge,
        runtime: Runtime,
        other_release: OtherRelease,
        *,
        shows_problems: bool = False,
        review: tuple[str, str] | None = None,
    ) -> None:
        """`plan`, and `judge` with its runs, the build's; `other_release`: a block's facts as
        another JAX recorded them; `shows_problems`: the page shows what is wrong (drift at its
        block, the page check's problems in a box), as under serve, where a build fails on
        them at its end; `review`: under serve, the browser review's (address, token)."""
        self.plan = plan
        self.masker = Masker.from_environ(context.settings.environ)
        self.runs = judge.runs
        self.judge = judge
        self.versions = dict(runtime.versions())
        self.result_language = runtime.result_language
        self.other_release = other_release
        self.root = context.root
        self.auto = context.settings.auto  # the scan's rule, to read a page again
        self.shows_problems = shows_problems
        # Under `mkdocs serve`: the browser review's (address, token), from the engine;
        # the drift shown at a block then has accept and keep buttons (`fence.drift_warning`).
        self.review = review
        self.launcher = context.launcher  # the book's command line, from the build's settings
        self.nav_places = prose.nav_places(context.nav)  # the reserved block `nav`
        self.sources: dict[str, tuple[str, dict[str, Any]]] = {}  # page -> markdown, meta
        self.offsets: dict[str, int] = {}  # page -> lines of front matter before its markdown
        # Blocks found on their page's final HTML as planned (labs: judged), and what each
        # page must show, from the formatter (see `check_page`).
        self.rendered: set[tuple[str, str]] = set()
        self.expected: dict[str, dict[str, verify.Expected]] = {}
        self.checked: set[str] = set()  # pages whose final HTML was checked
        self.page: str | None = None
        self.taken: set[str] = set()  # the page's blocks without an id already rendered
        # Blocks whose formatting failed inside the engine (`fence_failed`): reported as such.
        self.failed_fences: set[tuple[str, str]] = set()
        self.printing: Block | None = None  # the block whose printed Markdown is rendered
        # (page, written block) -> how many fences it (and what it printed) printed so far
        self.printed: dict[tuple[str, str], int] = {}
        self.shell_shown: set[tuple[str, str]] = set()  # shell fences compared, (page, id)
        self.said: set[str] = set()  # the notes the page being rendered has said (`first_time`)

    @property
    def pending_blocks(self) -> set[tuple[str, str]]:
        """Blocks shown from their goldens while they run (under serve)."""
        return self.judge.pending_blocks

    @property
    def pending_new(self) -> set[tuple[str, str]]:
        """Of those, the blocks with no golden yet (a draft's new block)."""
        return self.judge.pending_new

    # -- a page's markdown --------------------------------------------------------------------

    def enter_page(
        self, src: str, markdown: str, meta: dict[str, Any] | None = None, offset: int = 0
    ) -> str:
        """Start rendering a page: put recorded values into its prose.

        A reference that cannot be filled is a failure of the page, reported with the rest at
        the end of the build; the page goes on rendering."""
        self.page = src
        self.taken = set()
        self.said = set()
        self.printed = {(page, b): n for (page, b), n in self.printed.items() if page != src}
        self.offsets[src] = offset
        self.sources[src] = ("\n" * offset + markdown, meta or {})  # lines as in the file
        return prose.render(
            markdown,
            src,
            self.facts_of,
            self.figure,
            on_error=self._prose_failed,
            steps=self.stepper,
            docs=self.plan.reading.docs,
        )

    def fill(self, page: str, text: str, line: int) -> str:
        """Prose of `page` shown elsewhere (a glossary card), from its line `line`: its
        values in place, a bad reference failed as the page's own prose fails it."""
        return prose.render(
            text,
            page,
            self.facts_of,
            on_error=self._prose_failed,
            docs=self.plan.reading.docs,
            start=line,
        )

    def _prose_failed(self, page: str, message: str) -> None:
        self.judge.fail(page, f"(prose) {message}", message)

    def facts_of(
        self, page: str, block_id: str, release: str | None = None
    ) -> dict[str, Fact] | None:
        """A block's values by name (or a reserved block's: the nav's places, the versions);
        None for a block the page does not have."""
        if block_id == prose.NAV_BLOCK and release is None:
            return self.nav_places
        versions = block_id == prose.VERSIONS_BLOCK
        block = None if versions else self.plan.block(page, block_id)
        if block is None and not versions:
            return None
        if release is not None:  # the value as another release printed it: an extension's
            return self.other_release(page, block_id, release)
        if block is None:  # the versions this build runs
            return {name: Fact(name, "exact", value) for name, value in self.versions.items()}
        return self.runs.facts(page, block)

    def _referenced(self, kind: str, ref: str, where: str) -> tuple[str, str, str, dict[str, Fact]]:
        """The page, block and name a `{{kind:block.name}}` reference names, with that block's
        facts; an error naming `where` when the reference or its block does not exist."""
        docs = self.plan.reading.docs
        page = where.removeprefix(f"{docs}/").rpartition(":")[0]
        try:
            target, block_id, name, _ = prose.parse_reference(ref, page)
        except ValueError:
            raise BookError(f"{where}: {kind} '{ref}' must look like block-id.name") from None
        facts = self.facts_of(target, block_id)
        if facts is None:
            raise BookError(
                f"{where}: {kind} '{ref}' names block '{block_id}', "
                f"which {docs}/{target} does not have"
            )
        return target, block_id, name, facts

    def figure(self, ref: str, where: str) -> str:
        """The HTML of the figure `ref` names, drawn from the values it plots."""
        target, block_id, name, facts = self._referenced("figure", ref, where)
        spec = figures.parse_spec(facts[name]) if name in facts else None
        if spec is None:
            raise BookError(
                f"{where}: block '{block_id}' recorded no figure '{name}' (bookexec.facts.figure)"
            )
        plotted = [n for names in spec["series"].values() for n in names]
        values = facts
        # Said to the reader: the values are measured, and theirs will differ (which build's
        # values the figure draws is the maintainer's business: the build's notes say it).
        caption = "Drawn from the values recorded with this page's outputs."
        if self.runs.execute:
            caption = "Drawn from measured values; a run on your machine measures its own."
            # The golden keeps its values (the update mode never rewrites a golden for a
            # moved time), so drawing them while this build measures within their bands gives
            # the same SVG from build to build; a value out of its band is drawn as measured.
            block = self.plan.block(target, block_id)
            kept = recorded(self.runs.goldens, block)[1] if block else []
            golden = {f.name: f for f in kept}
            if all(n in golden and golden[n].kind == facts[n].kind for n in plotted) and not (
                measured.band_notes([golden[n] for n in plotted], [facts[n] for n in plotted])
            ):
                values = golden
        return figures.figure_html(
            name, spec, {n: float(values[n].value) for n in plotted}, caption
        )

    def stepper(self, ref: str, where: str) -> str:
        """The HTML of the trace stepper `ref` names, from the mapping its block recorded
        (this build's, which the judge compares with the golden like any fact)."""
        _, block_id, name, facts = self._referenced("stepper", ref, where)
        spec = stepper_html.parse_spec(facts[name]) if name in facts else None
        if spec is None:
            raise BookError(
                f"{where}: block '{block_id}' recorded no stepper '{name}' "
                "(bookexec.jax.stepper.stepper)"
            )
        caption = (
            "Each equation is labelled with the line of the function that recorded it, as JAX "
            "records it. Step through the lines with Next and Previous, the arrow keys, or a "
            "click on a line."
        )
        # ids from the block and the name: two blocks of a page may name their steppers alike
        return stepper_html.stepper_html(f"{block_id}-{name}", spec, caption)

    # -- the fence ----------------------------------------------------------------------------

    def output_for(
        self, block_id: str, code: str
    ) -> tuple[Block, str, Comparison | None, Failure | None]:
        """The normalised output markdown-exec shows for block `block_id` of the page being
        rendered: looked up by (page, id), so a block rendered twice, or out of order, still
        gets its own."""
        page = self.page or "?"
        docs = self.plan.reading.docs
        # A block named by its place is found by its code, among those not rendered yet.
        unnamed = not block_id and self.plan.reading.snippets == ANYWHERE
        if self.printing is not None:  # a fence a block printed, whatever its id or code
            block: Block | None = self._printed_fence(page, self.printing, code)
        elif unnamed:
            block = self._unnamed(page, code)
        else:
            block = self.plan.block(page, block_id)
        if block is None and unnamed:
            self._refuse(
                page,
                code,
                f"{docs}/{page}: superfences handed the engine an executed block without an id "
                "whose code the scan did not find on the page (an include pymdownx.snippets "
                "reads from another base_path than the book's folder?); give the fence an "
                'id="..." to name the block in this message',
            )
        if block is None:
            self._refuse(page, block_id, self._unplanned(page, block_id))
        assert block is not None  # every branch above without one raised
        if code.strip("\n") != block.code.strip("\n"):
            if block.inline:
                raise BookError(
                    f"{block.where}: the code superfences handed the engine is not the code the "
                    "scan read (an include pymdownx.snippets reads from another base_path than "
                    "the book's folder, or a page changed while the book was building)"
                )
            raise BookError(f"{block.where}: the snippet changed while the book was building")
        self.taken.add(block.id)
        return (block, *self.judge.judged(page, block))

    def formatted(self, block_id: str, code: str, layout: Callable[[], Markup]) -> Markup:
        """The block's HTML as `layout` (the fence's format function) makes it; if the engine
        fails making it, an error box (`fence_failed`). Superfences would catch the error and
        show the fence raw, hidden lines and all, and the build would only say later that no
        page rendered the block."""
        try:
            return layout()
        except UnplannedFence:
            # Not a block of the page: a fence the scan did not plan is no executed block (one
            # shown inside an indented code block, say); superfences leaves it as its text.
            raise
        except Exception as error:  # any: it is reported with its real cause, never swallowed
            return self.fence_failed(block_id, code, error)

    def fence_failed(self, block_id: str, code: str, error: Exception) -> Markup:
        """The engine itself failed while formatting a block (`error`): a failure of the page
        naming its line, the block and the real cause, and an error box where the block would
        be, so the page never shows the raw fence."""
        page = self.page or "?"
        block = self.plan.block(page, block_id) if block_id else None
        if block is None:
            same = [b for b in self.plan.pages.get(page, []) if b.code.strip() == code.strip()]
            block = same[0] if same else None
        where = block.where if block else f"{self.plan.reading.docs}/{page} (block '{block_id}')"
        if isinstance(error, BookError):
            message = str(error)
        else:
            cause = clipped(f"{type(error).__module__}.{type(error).__qualname__}: {error}")
            message = f"{where}: the engine failed while formatting this block: {cause}"
            log.debug("bookexec: %s", message, exc_info=error)  # the engine's traceback, with -v
        self.judge.fail(page, f"(fence) {block.id if block else block_id}", message)
        if block is not None:
            self.failed_fences.add((page, block.id))
        return Markup(failure_box(message))

    def shown_by_markdown_exec(self, language: str, code: str, page_html: str) -> None:
        """A fence markdown-exec ran itself (a shell, console or pycon fence) made `page_html`:
        what a reader reads of it is compared with its golden (`Judge.judge_shown`)."""
        page = self.page or "?"
        left = [
            fence
            for fence in self.plan.shell.get(page, [])
            if fence.language == language and (page, fence.id) not in self.shell_shown
        ]
        # Its code as written; or, for a fence that includes a file (pymdownx.snippets hands
        # over the file's text), the first such fence not shown yet.
        same = [f for f in left if f.code.strip("\n") == code.strip("\n")]
        same = same or [f for f in left if "--8<--" in f.code][:1]
        for fence in same[:1]:
            self.shell_shown.add((page, fence.id))
            text = html.unescape(_TAG.sub("", page_html))
            snippet = f"{fence.docs}/{page} ({language} fence)"
            self.judge.judge_shown(page, fence.id, snippet, text, fence.docs)
            return
        message = (
            f"{self.plan.reading.docs}/{page}: markdown-exec ran a {language} fence the scan did "
            "not find, so no golden checks it (is it printed by a block, or included from "
            "another base_path?)"
        )
        self.judge.fail(page, f"(fence) {language} {code[:40]}", message)

    def _printed_fence(self, page: str, printing: Block, code: str) -> Block:
        """The fence `printing` printed that markdown-exec is rendering: the block the page's
        run ran for it (`execute.runner`), named by the written block and the order
        markdown-exec runs its fences in, which is the order they ran in."""
        written = printed_name(printing.id)[0]
        printer = self.plan.block(page, written)
        if printer is None:  # a fence printed by no block of the page: never run
            self._refuse(page, printing.id, _printed_fence(printing, code))
        assert printer is not None  # refused above
        number = self.printed.get((page, written), 0) + 1
        self.printed[(page, written)] = number
        block = Block(
            page,
            printer.index,
            printer.line,
            f"{written}.printed-{number}",
            f"{printer.docs}/{page} (inline)",
            code,
            docs=printer.docs,
            inline=True,
        )
        ran = self.judge.ran(page, block)
        if ran is not None and ran.code.strip("\n") != code.strip("\n"):
            self._refuse(page, block.id, _not_as_run(block, ran.code, code))
        return block

    def _unplanned(self, page: str, block_id: str) -> str:
        """Why a fence with id `block_id` has no block: the page was saved after the build
        read it (the block is in the text being rendered, so it never ran), or the fence was
        not written as the scanner reads executed fences."""
        docs = self.plan.reading.docs
        markdown = self.sources.get(page, ("", {}))[0]
        try:
            now = scan_page(page, markdown, self.root, self.auto, self.plan.reading)
        except BookError:
            now = []
        if block_id and any(block.id == block_id for block in now):
            return (
                f"{docs}/{page}: block '{block_id}' is not the build's: the page was saved after "
                "the build read it, so the block did not run; the next build runs it"
            )
        return (
            f"{docs}/{page}: markdown-exec rendered block '{block_id or '?'}' that the scanner "
            f'did not find; write executed fences as ```python exec="on" id="..."'
        )

    def _refuse(self, page: str, key: str, message: str) -> None:
        """A fence the engine will not run: a failure of the page, whatever the Markdown
        extension that called the fence does with the error (superfences shows the fence)."""
        self.judge.fail(page, f"(fence) {key}", message)
        # Superfences shows the fence as its text; the failure above fails the build.
        raise UnplannedFence(message)

    @contextlib.contextmanager
    def printed_by(self, block: Block) -> Iterator[None]:
        """While markdown-exec renders what `block` printed as Markdown: an executed fence in
        it is the fence `block` printed, which ran after it (`_printed_fence`)."""
        printing, self.printing = self.printing, block
        try:
            yield
        finally:
            self.printing = printing

    def _unnamed(self, page: str, code: str) -> Block | None:
        """The first block of the page without an id whose code is `code` and that was not
        rendered yet: superfences may reach the fences nested in other blocks after the
        others, so the place alone would not do."""
        for block in self.plan.pages.get(page, []):
            if "id" in block.options or block.id in self.taken:
                continue
            if block.code.strip("\n") == code.strip("\n"):
                return block
        return None

    def first_time(self, said: str) -> bool:
        """Whether the page being rendered has not shown the note `said` yet."""
        first = said not in self.said
        self.said.add(said)
        return first

    def laid_out(self, block: Block, output: str, look: Look) -> None:
        """The formatter made the block's boxes: `check_page` expects them on the page."""
        code = self.masker.mask(block.shown)  # as the fence shows it: no hidden lines, masked
        expected = verify.Expected(block.id, block.where, code, output, look)
        self.expected.setdefault(block.page, {})[block.id] = expected

    # -- the page's final HTML ----------------------------------------------------------------

    def check_page(self, page: str, output: str) -> str:
        """The page as MkDocs wrote it: every planned block exactly once, each box holding
        exactly what its block holds and printed. A problem fails the check at the end of the
        build like any failure; under serve it is shown at the top of the page."""
        blocks = self.plan.pages.get(page, [])
        if not blocks:
            return output
        self.checked.add(page)
        judgements = self.judge.judgements
        pending = self.judge.pending_blocks
        if page in self.plan.owned and any((page, b.id) in pending for b in blocks):
            # Under serve, a lab whose cells still run says so instead of showing them (its
            # extension converts it when they end): nothing on it is a cell as it ran yet.
            return output
        if page in self.plan.owned:  # a lab: mkdocs-jupyter rendered the cells the build judged
            cells = []
            for b in blocks:  # what labs.render wrote into the executed copy
                if (page, b.id) in judgements:
                    text, _, failure = judgements[(page, b.id)]
                    cells.append((b.id, b.where, f"{failure.message}\n" if failure else text))
            found = verify.lab_problems(page, output, cells)
            shown: set[str] = {block_id for block_id, _, _ in cells}
        else:
            planned = self.expected.get(page, {})
            expected = [planned[b.id] for b in blocks if b.id in planned]
            # a block never laid out is `missed`'s
            found = verify.problems(page, output, expected, self.plan.reading.docs)
            shown = set(planned)
            unrendered = [
                b for b in blocks if b.id not in planned and (page, b.id) not in self.failed_fences
            ]
            if unrendered:  # its fence may be on the page raw, hidden lines and all
                return withheld(output, [f"{b.where}: {NOT_RENDERED}" for b in unrendered])
        wrong = {block_id for block_id, _ in found}
        self.rendered |= {(page, b.id) for b in blocks if b.id in shown and b.id not in wrong}
        messages = [message for _, message in found]
        for message in messages:
            self.judge.fail(page, f"(page) {message}", message)
        if messages and self.shows_problems:
            return verify_box(output, messages)
        return output

    def missed(self, pages: set[str] | None = None) -> list[str]:
        """Blocks the scanner found but markdown-exec never laid out, so nothing checked them;
        only on `pages`, when given (a dirty build renders some). One laid out but not shown as
        it should be is its page's failure (`check_page`)."""
        return [
            block.where
            for page, blocks in self.plan.pages.items()
            if pages is None or page in pages
            for block in blocks
            if (block.page, block.id) not in self.rendered | self.failed_fences
            and not self._reported(page, block)
        ] + [
            fence.where
            for page, fences in self.plan.shell.items()
            if pages is None or page in pages
            for fence in fences
            if (page, fence.id) not in self.shell_shown
        ]

    def _reported(self, page: str, block: Block) -> bool:
        """The page check named this block's problem: it was laid out (a lab's cell: judged)."""
        if page not in self.checked:
            return False
        if page in self.plan.owned:
            return (page, block.id) in self.judge.judgements
        return block.id in self.expected.get(page, {})


def _printed_fence(block: Block, code: str) -> str:
    """Why a fence printed by no block of the page is refused, naming the fence's first line."""
    first = next((line for line in code.splitlines() if line.strip()), "")
    return (
        f"{block.where}: an executed fence ({first[:60]!r} ...) was printed by no block of the "
        "page, so nothing ran it"
    )


def _not_as_run(block: Block, ran: str, rendered: str) -> str:
    """Why a printed fence whose code is not what ran is refused: its printer printed other
    code when markdown-exec rendered it than when it ran (its output changed)."""
    return (
        f"{block.where}: the fence rendered ({rendered.strip()[:60]!r}) is not the fence that "
        f"ran ({ran.strip()[:60]!r}): what the block printed changed between its run and its "
        "rendering"
    )
