"""Find the executed blocks of a page before markdown-exec renders it.

Scanning up front lets every page start running in parallel while MkDocs still renders pages
one at a time, and lets a missing id or a bad include fail before anything runs.

A book chooses its snippet rule (`Reading.snippets`, the plugin's `snippets` option). Under
`page-folders` an executed block has an id and its body is exactly one snippet include, of a
file in its page's folder::

    ```python exec="on" id="scalar-jaxpr"
    --8<-- "snippets/tracers/scalar_jaxpr.py"
    ```

Under `anywhere`, markdown-exec's, the body is the code (its include lines, of files anywhere
in the book, read in place), and a block without an id is named by its place among the page's
executed blocks: `block-3` is the third.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath

from bookexec._internal.discover import hidden, memo
from bookexec._internal.discover.options import (
    ENGINE,
    MARKDOWN_EXEC,
    UNKNOWN_WARN,
    check_lines,
    check_markdown_exec,
    is_true,
)
from bookexec._internal.discover.options import check as options_check
from bookexec._internal.errors import BookError
from bookexec._internal.files import not_of_the_book
from bookexec.guard import LANGUAGES

_FENCE_OPEN = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>.*)$")
_ATTR = re.compile(r"""([A-Za-z_][\w-]*)=("[^"]*"|'[^']*'|[^\s"']+)""")
_INCLUDE = re.compile(r"""^--8<--[ \t]+(["'])(?P<path>[^"']+)\1[ \t]*$""")
# Every include pymdownx.snippets reads, wherever it is: `--8<-- "path"` (any run of dashes
# around `8<`), or the block form: a line `--8<--`, one path a line, and `--8<--` again; a
# leading `;` escapes the line. A path may end in a selection (`:3:9`, `:name`).
_ANY_INCLUDE = re.compile(r"""^[ \t]*-+8<-+[ \t]+(["'])(?P<path>[^"'\n]+)\1""")
_INCLUDE_MARK = re.compile(r"^[ \t]*-+8<-+[ \t]*$")
_SELECTION = re.compile(r"(?::[^:/\\]*)+$")
_INCLUDE_DEPTH = 8  # nested includes followed at most this deep (pymdownx follows them all)
_ID = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
# superfences' option syntax (pymdownx.superfences RE_NESTED_FENCE_START): `name` alone, or
# `name="value"` / `name='value'`; anything else makes it ignore the fence, or read a bare word
# as name="name".
_OPTION_WORD = re.compile(r"""[ \t]*(?P<key>[^\s=]+)(?P<eq>=(?P<value>"[^"]*"|'[^']*'|\S*))?""")
_SUPERFENCES_KEY = re.compile(r"[a-zA-Z][a-zA-Z0-9_]*")
# A line that opens a container whose content is indented: a list item, an admonition or a
# collapsible (`!!!`, `???`), a content tab (`===`), a footnote.
_CONTAINER = re.compile(
    r"^(?P<indent>[ \t]*)(?:(?P<list>[-*+]|\d+[.)])(?P<gap>[ \t]+)"
    r"|(?:!!!|\?\?\?\+?|===\+?)[ \t]|\[\^[^\]]+\]:)"
)
# Any fence's opening, at any indentation, as a reader of prose skips fenced code.
_ANY_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
_COMMENT_FENCE = re.compile(r"(?:`{3,}|~{3,})[ \t]*(?P<info>[^\n`]*)")
# An id names its golden file and, with a prefix such as "prose-", cells of the chapter's
# notebook, where nbformat allows 64 characters: 48 leaves room for both.
MAX_ID_LENGTH = 48
# The snippet rules (the plugin's `snippets` option): see the module's docstring.
ANYWHERE = "anywhere"
PAGE_FOLDERS = "page-folders"
SNIPPET_RULES = (ANYWHERE, PAGE_FOLDERS)
POSITION_ID = "block-{}"  # the id of a block without one: its 1-based place on the page
SNIPPET_ROOT = "snippets"  # under `page-folders`, a page's snippets are in SNIPPET_ROOT/<page>/


@dataclass(frozen=True)
class Reading:
    """How a book's pages are read: its snippet rule, how its fences behave (`fences`:
    markdown-exec's or the engine's, `discover.options.FENCES`) and its docs_dir, which every
    message names. The default is the strictest: the JAX book's."""

    snippets: str = PAGE_FOLDERS
    fences: str = ENGINE
    docs: str = "docs"
    # The most characters a shown line of a block may have (0: no limit): the plugin's
    # `shown_line_length`, the width a book's code box holds without wrapping.
    shown_line_length: int = 0
    # pymdownx.snippets' `base_path` folders, relative to the book's root ("": the root), in
    # its order: an include names a file in the first of them that has it.
    bases: tuple[str, ...] = ("",)
    # An option of a markdown-exec fence that no fence reads (`options.UNKNOWN_CHOICES`).
    unknown: str = UNKNOWN_WARN


@dataclass(frozen=True)
class Block:
    """One executed fence: where it is, what it runs, and how the author configured it."""

    page: str  # docs-relative path, e.g. "tracers.md"
    index: int  # position among the page's executed blocks
    line: int  # 1-based line of the opening fence in the page source
    id: str
    snippet: str  # repository-relative path of the included file
    code: str  # what the engine runs: the whole snippet
    options: dict[str, str] = field(default_factory=dict, compare=False, hash=False)
    # What the reader sees, copies and downloads: the code without its hidden lines.
    shown: str = field(init=False, compare=False, hash=False, repr=False)
    # The line each line of `code` runs as: the shown code's own (`hidden.numbering`).
    numbering: tuple[int, ...] = field(init=False, compare=False, hash=False, repr=False)
    docs: str = field(default="docs", compare=False)  # the book's docs_dir, as messages name it
    inline: bool = field(default=False, compare=False)  # the code is the fence's own body
    # The globals it runs in, in its page's worker (`execute.worker.Session`): None, the page's
    # one session (the engine's fences); "", its own fresh globals; a name, that session's.
    namespace: str | None = field(default=None, compare=False)
    # Its fence's `timeout` in seconds, read once as it is found (the scan checked it); None:
    # the build's (`execute.limits.Limits.timeout`).
    timeout: float | None = field(init=False, compare=False, hash=False, repr=False)

    def __post_init__(self) -> None:
        # Read once, as the block is found: a marker that cannot be read fails the scan.
        shown, numbering = hidden.reading(self.code, self.where)
        object.__setattr__(self, "shown", shown)
        object.__setattr__(self, "numbering", tuple(numbering))
        written = self.options.get("timeout")
        object.__setattr__(self, "timeout", float(written) if written else None)

    @property
    def where(self) -> str:
        """Page, line, block and snippet: how every error names the block."""
        printer, number = printed_name(self.id)
        if number:
            return f"{self.docs}/{self.page}:{self.line} (block '{printer}', {number})"
        code = "inline code" if self.inline else f"snippet {self.snippet}"
        return f"{self.docs}/{self.page}:{self.line} (block '{self.id}', {code})"


# A fence a block printed, which markdown-exec runs as it renders the output, is a block of its
# own: `<the written block's id>.printed-<n>`, numbered in the order markdown-exec runs them
# (what it printed, then what that printed, depth first). No written id has a dot.
_PRINTED = re.compile(r"^(?P<printer>.+)\.printed-(?P<n>[0-9]+)$")


def printed_name(block_id: str) -> tuple[str, str]:
    """(the written block, "the fence it printed #n") for a printed fence's id, else
    (block_id, "")."""
    found = _PRINTED.match(block_id)
    if not found:
        return block_id, ""
    return found["printer"], f"the fence it printed #{found['n']}"


def prints_markdown(block: Block, reading: Reading) -> bool:
    """markdown-exec converts what `block` prints as Markdown, running the executed fences in
    it: a markdown-exec book's block with neither `html` nor `result`."""
    if reading.fences != MARKDOWN_EXEC:
        return False
    return not is_true(block.options.get("html", "no")) and not block.options.get("result")


def printed_block(printer: Block, number: int, found: Block) -> Block:
    """The fence `found`, the `number`th that the written block `printer` (or a fence it
    printed) printed, as a block of `printer`'s page, named and placed after `printer`."""
    return replace(
        found,
        index=printer.index,
        line=printer.line,
        id=f"{printer.id}.printed-{number}",
        snippet=f"{printer.docs}/{printer.page} (inline)",
        inline=True,
    )


def printed_fences(
    printer: Block, output: str, root: Path, auto: Iterable[str], reading: Reading
) -> list[Block]:
    """The executed fences in what `printer` printed, in order, as they are read in a page (a
    bad one is an error naming `printer`); none unless markdown-exec renders it as Markdown."""
    if not prints_markdown(printer, reading) or ("```" not in output and "~~~" not in output):
        return []
    try:
        return scan_page(printer.page, output, root, auto, reading)
    except BookError as error:
        raise BookError(f"{printer.where}: a fence it printed: {error}") from None


def parse_info(info: str) -> tuple[str, dict[str, str]]:
    """Split a fence's info string into its language and its key="value" options."""
    info = info.strip()
    if info.startswith("{") and info.endswith("}"):
        info = info[1:-1].strip()
    language, _, rest = info.partition(" ")
    language = language.lstrip(".")
    options = {key: value.strip("\"'") for key, value in _ATTR.findall(rest)}
    return language, options


def bare_words(info: str) -> tuple[dict[str, str], list[str]]:
    """The options as superfences reads them (a bare word `w` as w="w"), and each word that is
    not `name="value"`, in order; the brace form `{ .python ... }` is attr_list's, not read."""
    info = info.strip()
    if info.startswith("{"):
        return parse_info(info)[1], []
    _, _, rest = info.partition(" ")
    read: dict[str, str] = {}
    wrong: list[str] = []
    for found in _OPTION_WORD.finditer(rest):
        key, value = found["key"], found["value"]
        quoted = value is not None and value[:1] in "\"'" and len(value) >= 2
        if found["eq"] is None:
            read[key] = key
            wrong.append(key)
        elif not quoted or not _SUPERFENCES_KEY.fullmatch(key):
            wrong.append(found[0].strip())
        else:
            read[key] = value[1:-1]
    return read, wrong


def repeated_options(info: str) -> list[str]:
    """The option names a fence's info string gives more than once, in order."""
    info = info.strip()
    if info.startswith("{") and info.endswith("}"):
        info = info[1:-1].strip()
    keys = [key for key, _ in _ATTR.findall(info.partition(" ")[2])]
    return [key for i, key in enumerate(keys) if key in keys[:i]]


def is_executed(language: str, options: dict[str, str], auto: Iterable[str] = ()) -> bool:
    """Exactly the fences markdown-exec executes: a language the book runs, with `exec` true by
    markdown-exec's rule, or among `auto`, the languages named in markdown-exec's
    MARKDOWN_EXEC_AUTO (`bookexec._internal.settings` reads it)."""
    if language not in LANGUAGES:  # the fences the engine registers (`bookexec.guard`)
        return False
    return language in auto or is_true(options.get("exec", "no"))


def snippet_dir_for(page: str) -> str:
    """Snippets are named after their chapter: docs/tracers.md -> snippets/tracers/."""
    return str(PurePosixPath(SNIPPET_ROOT) / PurePosixPath(page).with_suffix(""))


def scan_page(
    page: str,
    markdown: str,
    root: Path,
    auto: Iterable[str] = (),
    reading: Reading | None = None,
) -> list[Block]:
    """Return the page's executed blocks in order, or raise a BookError naming page and line.
    `auto`: the languages markdown-exec runs without `exec` (see `is_executed`); `reading`:
    the book's snippet rule, fences and docs_dir (the strictest rule unless given)."""
    reading = reading or Reading()
    lines = markdown.splitlines()
    blocks: list[Block] = []
    seen: dict[str, int] = {}

    def comment(i: int) -> int:
        return _skip_comment(page, lines, i, auto, reading.docs)

    for fence in _fences(lines, auto, reading, comment):
        language, options = parse_info(fence.info)
        as_read, wrong = bare_words(fence.info)
        if not is_executed(language, options, auto) and not is_executed(language, as_read, auto):
            continue
        where = f"{reading.docs}/{page}:{fence.line}"
        _check_info(fence.info, wrong, where)
        _check_indent(page, lines, fence.line - 1, reading.docs)
        block_id = _block_id(page, fence, options, blocks, seen, reading)
        seen[block_id] = fence.line
        snippet, inline, code = _block_code(page, fence, root, options, block_id, reading)
        kind = "inline code" if inline else f"snippet {snippet}"
        in_block = f"{where} (block '{block_id}', {kind})"
        check_lines(options, in_block, code)
        _check_workdir(options, root, in_block)
        add_block(
            blocks,
            page,
            fence.line,
            block_id,
            snippet,
            code,
            options,
            docs=reading.docs,
            inline=inline,
            namespace=_namespace(options, reading),
        )
        check_width(blocks[-1], reading.shown_line_length)
    check_includes(f"{reading.docs}/{page}", markdown, root, bases=reading.bases)
    return blocks


@dataclass(frozen=True)
class _Fence:
    """A fenced block of a page as superfences reads it: its opening line, info and body."""

    line: int  # 1-based line of the opening fence
    info: str
    body: list[str]


def _fences(
    lines: list[str],
    auto: Iterable[str],
    reading: Reading,
    comment: Callable[[int], int] | None = None,
) -> Iterator[_Fence]:
    """Each fence of the page in order, those inside a Markdown fence markdown-exec runs
    included (its body is Markdown that markdown-exec renders, running the executed fences in
    it: they are read where they are written). `comment(i)`: the line after an HTML comment
    that opens on line `i`, for a reader that looks inside comments."""
    # The Markdown fences markdown-exec runs that hold the line being read: their closing fences.
    markdown_fences: list[str] = []
    i = 0
    while i < len(lines):
        if markdown_fences and _closes(lines[i], markdown_fences[-1]):
            markdown_fences.pop()
            i += 1
            continue
        opened = _FENCE_OPEN.match(lines[i])
        if not opened:
            i = comment(i) if comment is not None and "<!--" in lines[i] else i + 1
            continue
        if _runs_as_markdown(opened["info"], auto, reading):
            markdown_fences.append(opened["fence"])
            i += 1
            continue
        body, after = _fence_body(lines, i + 1, opened["fence"], opened["indent"])
        yield _Fence(i + 1, opened["info"], body)
        i = after


def _fence_body(lines: list[str], i: int, fence: str, indent: str) -> tuple[list[str], int]:
    """The body of a fence whose first line is `i`, its opening's indent taken off, and the
    line after its closing fence."""
    body: list[str] = []
    # As superfences reads it: a closing fence sits at the opening's indentation; one indented
    # further is a line of the code (a fence inside a string, say).
    while i < len(lines) and not (
        _closes(lines[i], fence) and not lines[i][len(indent) :][:1].isspace()
    ):
        body.append(lines[i][len(indent) :] if lines[i].startswith(indent) else lines[i])
        i += 1
    return body, i + 1


def _check_info(info: str, wrong: list[str], where: str) -> None:
    """An executed fence's options as superfences would read them: each name="value", once."""
    if wrong:
        raise BookError(
            f"{where}: '{wrong[0]}' among the options of an executed fence is not "
            'name="value" (superfences would ignore the fence or read a bare word as '
            'name="name"); write each option as name="value"'
        )
    repeated = repeated_options(info)
    if repeated:
        raise BookError(
            f"{where}: option '{repeated[0]}' is given twice on an executed fence "
            "(superfences would take the last one silently); give it once"
        )


def _block_id(
    page: str,
    fence: _Fence,
    options: dict[str, str],
    blocks: list[Block],
    seen: dict[str, int],
    reading: Reading,
) -> str:
    """The block's id: its option, or under `anywhere` its place; checked against the rules
    and the ids `seen` so far (each with its line)."""
    docs = reading.docs
    where = f"{docs}/{page}:{fence.line}"
    # Name the snippet in every error, even before the block is known to be well formed.
    named = _include_of(fence.body)
    in_snippet = f" (snippet {named})" if named else ""
    block_id = options.get("id", "")
    if not block_id and reading.snippets == ANYWHERE:
        block_id = POSITION_ID.format(len(blocks) + 1)
    if not block_id:
        raise BookError(
            f'{where}: executed block has no id{in_snippet}; add id="..." to the fence, '
            "lower-case and unique in the page"
        )
    _check_id(block_id, where, in_snippet)
    if block_id in seen:
        given = "" if "id" in options else " (the id of a block without one: its place)"
        raise BookError(
            f"{where}: duplicate block id '{block_id}'{given} "
            f"(first used at {docs}/{page}:{seen[block_id]}){in_snippet}; "
            "give each block of a page its own id"
        )
    return block_id


def _check_id(block_id: str, where: str, in_snippet: str) -> None:
    """An id short enough for its golden's and cells' names, of the characters allowed."""
    if len(block_id) > MAX_ID_LENGTH:
        raise BookError(
            f"{where}: block id '{block_id[:MAX_ID_LENGTH]}...'{in_snippet} is "
            f"{len(block_id)} characters long; an id may have at most {MAX_ID_LENGTH} (it "
            "names the golden file and the notebook's cells): shorten it"
        )
    if not _ID.match(block_id):
        raise BookError(
            f"{where}: block id '{block_id}'{in_snippet} must be lower-case letters, digits, "
            "'-' or '_'; rename it"
        )


def _block_code(
    page: str,
    fence: _Fence,
    root: Path,
    options: dict[str, str],
    block_id: str,
    reading: Reading,
) -> tuple[str, bool, str]:
    """(snippet, inline, code) of an executed fence: its body's code under `anywhere` when it
    includes no single file, else the one snippet it includes, checked (options, folder)."""
    docs = reading.docs
    where = f"{docs}/{page}:{fence.line}"
    if reading.snippets == ANYWHERE and _include_of(fence.body) is None:
        code = _inline_code(fence.body, root, where, block_id, reading.bases)
        _check_options(options, f"{where} (block '{block_id}', inline code)", reading)
        return f"{docs}/{page} (inline)", True, code
    snippet = found_in(_single_include(fence.body, where, block_id), root, reading.bases)
    _check_options(options, f"{where} (block '{block_id}', snippet {snippet})", reading)
    expected_dir = snippet_dir_for(page)
    if reading.snippets == PAGE_FOLDERS and (
        PurePosixPath(snippet).parent != PurePosixPath(expected_dir)
    ):
        raise BookError(
            f"{where}: block '{block_id}' includes {snippet}; "
            f"snippets of {docs}/{page} live in {expected_dir}/: move the file there"
        )
    return snippet, False, _included(snippet, root, where, block_id)


def found_in(written: str, root: Path, bases: tuple[str, ...] = ("",)) -> str:
    """The path, relative to the book's root, of the file an include names: as
    pymdownx.snippets finds it, in the first of its `base_path` folders (`bases`) that has
    it; as written when none has it (the error then names the include as written)."""
    for base in bases:
        candidate = (PurePosixPath(base) / written).as_posix() if base else written
        memo.note(root / candidate)
        if os.path.lexists(root / candidate):
            return candidate
    return written


def check_width(block: Block, width: int) -> None:
    """A BookError naming the block and the file's line of its first shown line longer than
    `width` characters (0: no limit), and the block's other such lines, so that one build
    lists all the author has to wrap. Hidden lines may be longer: no reader sees them."""
    if not width:
        return
    wide = [
        (hidden.file_line(block.code, at), len(line))
        for at, line in enumerate(block.shown.splitlines(), start=1)
        if len(line) > width
    ]
    if wide:
        (number, length), others = wide[0], [str(line) for line, _ in wide[1:]]
        more = f"; so is its line {others[0]}" if len(others) == 1 else ""
        more = f"; so are its lines {', '.join(others)}" if len(others) > 1 else more
        raise BookError(
            f"{block.where}: line {number} has {length} characters, more than the {width} a "
            f"shown line may have (shown_line_length: what the code box holds){more}; wrap it, "
            "or hide it if the reader need not see it"
        )


# The fences markdown-exec renders as Markdown (its `md` formatter): their body is the page's.
MARKDOWN_LANGUAGES = ("md", "markdown")


def _runs_as_markdown(info: str, auto: Iterable[str], reading: Reading) -> bool:
    """A fence markdown-exec runs as Markdown (`md exec="on"`), in a book whose other fences
    are laid out as markdown-exec lays them out (`fences: markdown-exec`)."""
    if reading.fences != MARKDOWN_EXEC:
        return False
    language, options = parse_info(info)
    if language not in MARKDOWN_LANGUAGES:
        return False
    return language in auto or is_true(options.get("exec", "no"))


def _closes(line: str, fence: str) -> bool:
    """Does `line` close a fence opened with `fence` (as long or longer, nothing else)?"""
    stripped = line.strip()
    return stripped.startswith(fence) and set(stripped) == {fence[0]}


def fenced_lines(lines: Iterable[str], start: int = 1) -> Iterator[tuple[int, str, bool]]:
    """Each line with its number (counted from `start`) and whether it is fenced code: a
    fence's opening and closing lines and all between them."""
    fence: str | None = None
    for number, line in enumerate(lines, start=start):
        opened = _ANY_FENCE.match(line)
        if fence is None and opened:
            fence = opened[1]
            yield number, line, True
        elif fence is not None:
            if _closes(line, fence):
                fence = None
            yield number, line, True
        else:
            yield number, line, False


def prose_lines(lines: Iterable[str], start: int = 1) -> Iterator[tuple[int, str]]:
    """Each line outside fenced code, with its number (counted from `start`)."""
    return ((number, line) for number, line, code in fenced_lines(lines, start) if not code)


def _check_options(options: dict[str, str], where: str, reading: Reading) -> None:
    """The fence's options, as the book's fences read them (`discover.options`)."""
    if reading.fences == MARKDOWN_EXEC:
        check_markdown_exec(options, where, reading.unknown)
    else:
        options_check(options, where)


def _check_workdir(options: dict[str, str], root: Path, where: str) -> None:
    """markdown-exec's `workdir`, a folder the block runs in, from the book's root (where
    MkDocs runs): one of the book's folders, or a BookError naming it."""
    workdir = options.get("workdir")
    if workdir is None:
        return
    memo.note(root / workdir)
    problem = not_of_the_book(root / workdir, root)
    if problem or not (root / workdir).is_dir():
        why = problem or "it is no folder"
        raise BookError(
            f'{where}: option workdir="{workdir}" must be a folder of the book, from the folder '
            f"holding mkdocs.yml, but {why}; fix the path"
        )


def _namespace(options: dict[str, str], reading: Reading) -> str | None:
    """The globals a block runs in (`Block.namespace`): markdown-exec's fences run each block
    in fresh globals unless it names a `session`; the engine's share the page's one."""
    if reading.fences != MARKDOWN_EXEC:
        return None
    return options.get("session", "")


def _included(snippet: str, root: Path, where: str, block_id: str) -> str:
    """The text of a file a block includes: a file of the book, which exists."""
    memo.note(root / snippet)
    if problem := not_of_the_book(root / snippet, root):
        raise BookError(
            f"{where}: block '{block_id}' includes {snippet}, which the page would show and "
            f"run, but {problem}; a page shows only files of the book: put the file itself "
            "there. Nothing was read"
        )
    if not (root / snippet).is_file():
        raise BookError(
            f"{where}: block '{block_id}' includes {snippet}, which does not exist; "
            "create the file or fix the path in the include"
        )
    return read_snippet(snippet, root, where, block_id)


def _inline_code(
    body: list[str], root: Path, where: str, block_id: str, bases: tuple[str, ...] = ("",)
) -> str:
    """The code of a fence whose body is the code, as pymdownx.snippets hands it on: each
    line that includes a file replaced by the file's lines, at the include's indent."""
    out: list[str] = []
    for line in body:
        found = _INCLUDE.match(line.strip())
        if found is None:
            out.append(line)
            continue
        margin = line[: len(line) - len(line.lstrip())]
        text = _included(found_in(found["path"], root, bases), root, where, block_id)
        out += [margin + inner if inner else inner for inner in text.splitlines()]
    return "\n".join(out) + "\n"


def includes(text: str) -> list[tuple[int, str]]:
    """Each file a text includes with pymdownx.snippets, as (line, path as written), the line
    1-based; a line selection after the path is dropped."""
    found: list[tuple[int, str]] = []
    inside = False
    for number, line in enumerate(text.splitlines(), start=1):
        if _INCLUDE_MARK.match(line):
            inside = not inside
        elif inside and line.strip() and not line.strip().startswith(";"):
            found.append((number, line.strip()))
        elif matched := _ANY_INCLUDE.match(line):
            found.append((number, matched["path"].strip()))
    return found


def check_includes(
    name: str, text: str, root: Path, depth: int = 0, bases: tuple[str, ...] = ("",)
) -> None:
    """Every file `name` (a page, or a file a page includes) pulls in with pymdownx.snippets,
    and every file those pull in, is a file of the book: a symlink, or a path that leaves the
    book, is a BookError naming the page, the line and the file, before anything is shown."""
    for line, written in includes(text):
        if written.startswith(("http://", "https://")):
            continue  # pymdownx reads a URL only with url_download, which the book leaves off
        path = root / found_in(written, root, bases)
        if not os.path.lexists(path):
            path = root / found_in(_SELECTION.sub("", written), root, bases)
        memo.note(path)
        if problem := not_of_the_book(path, root):
            raise BookError(
                f"{name}:{line}: includes {written}, but {problem}; a page shows only files of "
                "the book: put the file itself there. Nothing was read"
            )
        if depth < _INCLUDE_DEPTH and path.is_file():
            try:
                inner = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue  # pymdownx says what is wrong with it
            check_includes(f"{name}:{line}: {written}", inner, root, depth + 1, bases)


def _skip_comment(
    page: str, lines: list[str], i: int, auto: Iterable[str], docs: str = "docs"
) -> int:
    """The line after the HTML comment that opens on line `i`. An executed fence inside it
    would never run and never be seen: an error naming the page and the line."""
    text = "\n".join(lines[i:])
    begin = text.index("<!--")
    end = text.find("-->", begin + 4)
    inside = text[begin + 4 : end if end >= 0 else len(text)]
    for found in _COMMENT_FENCE.finditer(inside):
        language, options = parse_info(found["info"])
        bare = bare_words(found["info"])[0]
        if is_executed(language, options, auto) or is_executed(language, bare, auto):
            line = i + 1 + text.count("\n", 0, begin + 4 + found.start())
            raise BookError(
                f"{docs}/{page}:{line}: an executed fence inside an HTML comment (opened at line "
                f"{i + 1}) is never run nor shown; delete it, or move it out of the comment"
            )
    if end < 0:
        return len(lines)
    return i + text.count("\n", 0, end) + 1


def _check_indent(page: str, lines: list[str], i: int, docs: str = "docs") -> None:
    """A fence indented four columns or more past its container (or past the page margin) is
    an indented code block for Markdown: superfences runs it, and the page shows its raw text."""
    indent = len(lines[i].expandtabs(4)) - len(lines[i].expandtabs(4).lstrip())
    content = 0  # where the container's content starts: the page margin unless inside one
    for line in reversed(lines[:i]):
        expanded = line.expandtabs(4)
        if not expanded.strip():
            continue
        own = len(expanded) - len(expanded.lstrip())
        if own >= indent:
            continue
        container = _CONTAINER.match(expanded)
        if container is None:
            break
        if container["list"]:
            content = own + len(container["list"]) + len(container["gap"])
        else:
            content = own + 4
        break
    if indent - content >= 4:
        raise BookError(
            f"{docs}/{page}:{i + 1}: an executed fence indented {indent} spaces is an indented "
            "code block for Markdown: the page would show its raw text; indent it as its "
            "container's content (a list item, an admonition or a tab), or not at all"
        )


def add_block(
    blocks: list[Block],
    page: str,
    line: int,
    block_id: str,
    snippet: str,
    code: str,
    options: dict[str, str],
    *,
    docs: str = "docs",
    inline: bool = False,
    namespace: str | None = None,
) -> None:
    """Append a page's (or a lab's) next block: its index is its place among them."""
    index = len(blocks)
    blocks.append(
        Block(
            page,
            index,
            line,
            block_id,
            snippet,
            code,
            options,
            docs=docs,
            inline=inline,
            namespace=namespace,
        )
    )


def read_snippet(snippet: str, root: Path, where: str, block_id: str) -> str:
    """A snippet's text. It may not include other files: then its text is all the block runs,
    and the cache key, which hashes that text, cannot miss a dependency."""
    try:
        text = (root / snippet).read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise BookError(
            f"{where}: block '{block_id}' includes {snippet}, which is not valid UTF-8 "
            f"(byte {error.start}); save the file as UTF-8"
        ) from None
    for number, line in enumerate(text.splitlines(), start=1):
        if _INCLUDE.match(line.strip()):
            raise BookError(
                f"{where}: block '{block_id}': {snippet}:{number} includes another file; a "
                "snippet must stand alone: copy what it needs into it, or into an earlier block"
            )
    return text


def _include_of(body: list[str]) -> str | None:
    """The included snippet's path, if the body is a single include."""
    content = [line for line in body if line.strip()]
    match = _INCLUDE.match(content[0].strip()) if len(content) == 1 else None
    return match["path"] if match else None


def _single_include(body: list[str], where: str, block_id: str) -> str:
    path = _include_of(body)
    if path is None:
        raise BookError(
            f"{where}: block '{block_id}' must contain exactly one snippet include, "
            f'like --8<-- "snippets/<chapter>/<name>.py"'
        )
    return path


# The languages markdown-exec runs in the build's own process, whose outputs the engine keeps
# goldens of (`shell_fences`): its shell, console and Python console fences.
SHELL_LANGUAGES = ("sh", "bash", "console", "pycon")


@dataclass(frozen=True)
class ShellFence:
    """A fence markdown-exec runs itself (`SHELL_LANGUAGES`), whose output still has a golden:
    named `<language>-<n>`, the n-th of its language on its page."""

    page: str
    line: int
    id: str
    language: str
    code: str
    docs: str = "docs"

    @property
    def where(self) -> str:
        """Page, line and fence, as every error names it."""
        return f"{self.docs}/{self.page}:{self.line} ({self.language} fence '{self.id}')"


def shell_fences(
    page: str, markdown: str, auto: Iterable[str] = (), reading: Reading | None = None
) -> list[ShellFence]:
    """The page's fences of `SHELL_LANGUAGES` that markdown-exec runs (`exec` true, or a
    language of MARKDOWN_EXEC_AUTO), in a book laid out as markdown-exec lays it out, read as
    `scan_page` reads fences (those inside an `md exec` fence too)."""
    reading = reading or Reading()
    if reading.fences != MARKDOWN_EXEC:
        return []
    found: list[ShellFence] = []
    counts: dict[str, int] = {}
    for fence in _fences(markdown.splitlines(), auto, reading):
        language, options = parse_info(fence.info)
        if language in SHELL_LANGUAGES and (language in auto or is_true(options.get("exec", "no"))):
            counts[language] = counts.get(language, 0) + 1
            name = f"{language}-{counts[language]}"
            code = "\n".join(fence.body)
            found.append(ShellFence(page, fence.line, name, language, code, reading.docs))
    return found
