"""Hidden lines: code the engine runs but the reader never sees, copies or downloads.

A snippet records facts, claims and timings through `bookexec.facts`, which a reader does not
have; those lines are marked, and the page, its copy button and the chapter's notebook show the
snippet without them (as rustdoc and mdBook hide lines starting with `# `):

    import jax

    from bookexec.facts import record  # hidden

    print("grad at 3.0:", jax.grad(kink)(3.0))
    record("at_3", str(jax.grad(kink)(3.0)))  # hidden

    # hidden: begin
    ...several lines...
    # hidden: end

A line ending in the comment `# hidden` is hidden; so is every line from a comment line
`# hidden: begin` to the next `# hidden: end`, both included. Only real comments count (not the
text inside a string), and a statement over several lines is hidden with a region, never with
a trailing mark on one of its lines. Blank lines that meet where hidden lines were taken out
keep the longer of the two runs, so the shown code is spaced as if written without them.
"""

from __future__ import annotations

import io
import re
import tokenize

from bookexec._internal.errors import BookError

MARK = "# hidden"
BEGIN = "# hidden: begin"
END = "# hidden: end"
# The line-based reading, for a snippet that does not tokenize (it fails when it runs anyway).
_TRAILING = re.compile(r"(?:^|\s)#\s*hidden\s*$")
# Where str.splitlines ends a line and Python's compiler does not: such a snippet runs as
# written, numbered by its file.
_OTHER_LINE_ENDS = "\v\f\x1c\x1d\x1e\x85\u2028\u2029"


def _normal(comment: str) -> str:
    """A comment as the markers are compared: one space after `#`; a comment that ends in
    `# hidden` after another (`# noqa: E731  # hidden`) is the mark."""
    if _TRAILING.search(comment):
        return MARK
    return "# " + comment.lstrip("#").strip()


def _comments(code: str) -> dict[int, tuple[str, bool]] | None:
    """Each 1-based line that holds a comment: the comment, and whether the line's statement
    goes on over other lines. None when the code does not tokenize."""
    found: dict[int, tuple[str, bool]] = {}
    start: int | None = None  # the first row of the logical line being read
    pending: list[tuple[int, str]] = []  # comments seen in that logical line
    skip = {tokenize.NL, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING}
    try:
        for token in tokenize.generate_tokens(io.StringIO(code).readline):
            row = token.start[0]
            if token.type == tokenize.COMMENT:
                if start is None:  # a comment on a line of its own
                    found[row] = (_normal(token.string), False)
                else:
                    pending.append((row, _normal(token.string)))
            elif token.type in (tokenize.NEWLINE, tokenize.ENDMARKER):
                for at, text in pending:
                    found[at] = (text, start != row)
                start, pending = None, []
            elif token.type not in skip and start is None:
                start = row
    except (tokenize.TokenError, SyntaxError):
        return None
    return found


def shown(code: str, where: str = "") -> str:
    """The code without its hidden lines, or a BookError naming `where` (the page, the block
    and the snippet) and the snippet's line for a marker that cannot be read one way only."""
    return _shown(code, _kept(code, where))


def _shown(code: str, kept: list[int]) -> str:
    lines = code.splitlines()  # once, not once a line: every rebuild reads every block
    text = "\n".join(lines[n - 1] for n in kept)
    return text + "\n" if text else ""


def reading(code: str, where: str = "") -> tuple[str, list[int]]:
    """`shown` and `numbering` from one reading of the markers (a block reads both as it is
    found; the scan of every page is part of what a one-block update waits for)."""
    kept = _kept(code, where)
    return _shown(code, kept), _numbering(code, kept)


def numbering(code: str, where: str = "") -> list[int]:
    """The line each line of the code runs as, so that what it prints names the lines the
    reader's copy has: a shown line its line in the shown code; a hidden line one past the
    shown code's end plus its own line in the file (the reader never runs it, and the engine
    reads the file's line back exactly, `file_line`); a blank line left out the line of the
    shown line before it. The numbers never go down, as Python's compiler requires."""
    return _numbering(code, _kept(code, where))


def _numbering(code: str, kept: list[int]) -> list[int]:
    lines = code.splitlines()
    if any(mark in code for mark in _OTHER_LINE_ENDS):  # Python's lines are not these
        return list(range(1, len(lines) + 1))
    shown_at = {line: at for at, line in enumerate(kept, start=1)}
    out: list[int] = []
    last = 1  # the last shown line met
    for number, line in enumerate(lines, start=1):
        if number in shown_at:
            last = shown_at[number]
            out.append(last)
        else:
            out.append(len(kept) + number if line.strip() else last)
    return out


def file_line(code: str, line: int, where: str = "") -> int:
    """The file's line for a line as `numbering` ran it: what the author edits."""
    kept = _kept(code, where)
    if 1 <= line <= len(kept):
        return kept[line - 1]
    return line - len(kept) if line > len(kept) else line


def _kept(code: str, where: str) -> list[int]:
    """The file's lines (1-based) the reader sees, in order."""
    lines = code.splitlines()
    comments = _marker_comments(code, lines)
    prefix = f"{where}: " if where else ""
    kept: list[int] = []
    opened: int | None = None  # the line of the `# hidden: begin` being read
    hiding = False  # the line before was hidden
    for number, line in enumerate(lines, start=1):
        comment, continued = comments.get(number, ("", False))
        opened, shown = _read_marker(prefix, number, line, comment, continued, opened)
        if shown and hiding:
            _drop_blanks_met(kept, lines, number)
        if shown:
            kept.append(number)
        hiding = not shown
    if opened is not None:
        raise BookError(
            f"{prefix}line {opened}: '{BEGIN}' is never closed; add '{END}' after the last "
            "line to hide"
        )
    # Blank lines at either end are not shown.
    while kept and not lines[kept[0] - 1]:
        del kept[0]
    while kept and not lines[kept[-1] - 1]:
        del kept[-1]
    return kept


def _marker_comments(code: str, lines: list[str]) -> dict[int, tuple[str, bool]]:
    """Each line's comment, as a marker reads it, and whether its statement goes on."""
    # Every marker says `hidden`: code that never does has none to tokenize for.
    comments = _comments(code) if "hidden" in code else {}
    if comments is None:
        comments = {
            n: (_normal(ln[ln.index("#") :]), False)
            for n, ln in enumerate(lines, start=1)
            if "#" in ln
        }
    return comments


def _read_marker(
    prefix: str, number: int, line: str, comment: str, continued: bool, opened: int | None
) -> tuple[int | None, bool]:
    """The hidden region open after line `number` (the line that opened it, or None), and
    whether the reader sees the line; a misplaced marker is a BookError."""
    alone = comment and line.strip().startswith("#")
    if alone and comment == BEGIN:
        if opened is not None:
            raise BookError(
                f"{prefix}line {number}: '{BEGIN}' inside the hidden region opened at line "
                f"{opened}; end that region first with '{END}'"
            )
        return number, False
    if alone and comment == END:
        if opened is None:
            raise BookError(
                f"{prefix}line {number}: '{END}' with no '{BEGIN}' before it; "
                "open the region or delete the line"
            )
        return None, False
    if opened is None and comment == MARK and continued:
        raise BookError(
            f"{prefix}line {number}: '{MARK}' on one line of a statement written over "
            f"several; hide the whole statement with '{BEGIN}' and '{END}' around it"
        )
    return opened, opened is None and comment != MARK


def _drop_blanks_met(kept: list[int], lines: list[str], number: int) -> None:
    """Hidden lines were taken out just before line `number`: the blank lines kept before them
    and those from `number` on meet; keep only the longer run."""
    before = 0
    while before < len(kept) and not lines[kept[-1 - before] - 1].strip():
        before += 1
    after = 0
    while number - 1 + after < len(lines) and not lines[number - 1 + after].strip():
        after += 1
    del kept[len(kept) - min(before, after) :]
