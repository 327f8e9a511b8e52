"""The options an executed fence or a lab cell may carry, checked before anything runs, and the
book's one reading of a yes/no value.

A misspelt option (`timout="300"`) would otherwise be ignored in silence, and a bad value
(`timeout="soon"`) would fail deep inside a worker thread with a raw traceback.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TypeVar

from pygments.lexers import find_lexer_class_by_name
from pygments.util import ClassNotFound

from bookexec._internal.errors import BookError

# A TypeVar, not `def f[T: float]`: the engine runs on Python 3.10 (PEP 695 is 3.12's).
Number = TypeVar("Number", bound=float)

# markdown-exec's `_to_bool` (markdown_exec/_internal/main.py): these, in any case, are false,
# and every other value ("y", "TRUE", "please") is true.
_MARKDOWN_EXEC_FALSE = frozenset({"", "no", "off", "false", "0"})
TRUE_WORDS = ("true", "yes", "on", "1")
FALSE_WORDS = ("false", "no", "off", "0")


def is_true(text: str) -> bool:
    """markdown-exec's reading of a yes/no option such as `exec`: false only for '', no, off,
    false or 0, in any case. The book scans exactly the fences markdown-exec executes."""
    return text.lower() not in _MARKDOWN_EXEC_FALSE


def parse_bool(text: str, where: str) -> bool:
    """The book's own switches (`fresh`, `BOOK_CACHE`): true, yes, on, 1 or false, no, off, 0,
    in any case; anything else is a BookError naming `where`, not a silent guess."""
    value = text.strip().lower()
    if value in TRUE_WORDS or value in FALSE_WORDS:
        return value in TRUE_WORDS
    words = ", ".join(f'"{word}"' for word in (*TRUE_WORDS, *FALSE_WORDS))
    raise BookError(f'{where}: "{text}" is not a yes or no; use one of {words}')


def parse_switch(text: str, where: str) -> bool | None:
    """A yes/no setting that may also be "auto" (None), like BOOK_CACHE."""
    return None if text.strip().lower() == "auto" else parse_bool(text, where)


# The largest value of each numeric option (issue 38): beyond these the platform refuses the
# number (faulthandler and the pipes' waits overflow past some 10**12 seconds, setrlimit past
# 2**63 bytes) or the book does work in proportion to it.
MAX_TIMEOUT = 86400  # seconds: a day
MAX_LIMIT = 10**9  # characters of output
MAX_BAND = 1000  # a factor either way
MAX_MEMORY = 2**50  # bytes
MAX_WIDTH = 10000  # columns
MAX_LINENUMS = 10**6  # markdown-exec's and superfences' first line, step and special line


def _positive(most: float) -> Callable[[str], bool]:
    return lambda text: _number(text, float, most)


def _whole(most: int) -> Callable[[str], bool]:
    return lambda text: _number(text, int, most)


def _number(text: str, kind: Callable[[str], float], most: float) -> bool:
    try:
        value = kind(text)
    except ValueError:
        return False
    return 0 < value <= most


_UNITS = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}


def parse_memory(text: str) -> int | None:
    """Bytes from a size like "8G", "512M", "1.5GiB" or "1073741824" (powers of 1024); None
    if it is not a positive size."""
    value = text.strip().upper().removesuffix("IB").removesuffix("B")
    unit = value[-1:] if value[-1:] in _UNITS else ""
    try:
        number = float(value[: len(value) - len(unit)])
    except ValueError:
        return None
    size = number * _UNITS[unit]
    return int(size) if 0 < size < float("inf") else None


def memory_words(size: int) -> str:
    """A size in bytes as the options write it: "8G", "1.5G", "512M"."""
    for unit in ("T", "G", "M", "K"):
        if size >= _UNITS[unit]:
            return f"{round(size / _UNITS[unit], 2):g}{unit}"
    return str(size)


def _memory(text: str) -> bool:
    size = parse_memory(text)
    return size is not None and size <= MAX_MEMORY


def _yes_or_no(text: str) -> bool:
    try:
        parse_bool(text, "")
    except BookError:
        return False
    return True


# How markdown-exec places the source (`bookexec._internal.render.layout` lays each out).
SOURCE_PLACES = ("block", "above", "below", "tabbed-left", "tabbed-right", "console")
# superfences' readings of hl_lines and linenums (pymdownx.superfences RE_HL_LINES and
# RE_LINENUMS), whole: superfences reads linenums="1x" as 1, the book refuses it.
_HL_LINES = re.compile(r"\d+(?:-\d+)?(?:[ \t]+\d+(?:-\d+)?)*")
_LINENUMS = re.compile(r"\d+(?:[ \t]+\d+){0,2}")
_TAB_SPLIT = re.compile(r"(?<!\\)\|")  # markdown-exec splits `tabs` on an unescaped |


def _matches(pattern: re.Pattern[str]) -> Callable[[str], bool]:
    return lambda text: pattern.fullmatch(text) is not None


def _linenums(text: str) -> bool:
    return _LINENUMS.fullmatch(text) is not None and all(
        int(n) <= MAX_LINENUMS for n in text.split()
    )


def _a_lexer(text: str) -> bool:
    try:
        find_lexer_class_by_name(text)
    except ClassNotFound:
        return False
    return True


def _two_tabs(text: str) -> bool:
    titles = _TAB_SPLIT.split(text)
    return len(titles) == 2 and all(title.strip() for title in titles)


@dataclass(frozen=True)
class Option:
    """One option the book reads: how its value is checked, and where it may be given."""

    name: str
    valid: Callable[[str], bool] | None = None  # None: any text
    must_be: str = ""  # what `valid` wants, in words, with an example
    runs: bool = True  # how the block runs: markdown-exec must not copy it to the output fence
    in_labs: bool = True  # a lab cell may carry it in its metadata


# What the book itself reads (see the table in docs/guide/chapters.md): the one list the fence,
# the scan and the labs use.
BOOK_OPTIONS = (
    Option("id", runs=False, in_labs=False),  # markdown-exec reads id and exec too
    Option("exec", runs=False, in_labs=False),
    Option("raises"),
    Option(
        "timeout",
        _positive(MAX_TIMEOUT),
        f'a positive number of seconds, like timeout="300", at most {MAX_TIMEOUT} (a day)',
    ),
    Option(
        "limit",
        _whole(MAX_LIMIT),
        f'a positive whole number, like limit="500000", at most {MAX_LIMIT}',
    ),
    Option("band", _positive(MAX_BAND), f'a positive number, like band="10", at most {MAX_BAND}'),
    Option(
        "memory",
        _memory,
        f'a size in bytes with K, M or G, like memory="8G", at most {memory_words(MAX_MEMORY)}',
    ),
    # A lab runs in one session, like a page: a cell cannot leave it.
    Option("fresh", _yes_or_no, 'fresh="true" or "false"', in_labs=False),
)
BOOK = tuple(option.name for option in BOOK_OPTIONS)
RUN_OPTIONS = tuple(option.name for option in BOOK_OPTIONS if option.runs)
LAB_OPTIONS = frozenset(option.name for option in BOOK_OPTIONS if option.in_labs)
# markdown-exec's and superfences' display options that still work with the book's executor.
# markdown-exec's `session`, `workdir` and `returncode` do not: each page is its own session.
# Nor does `html`: what a block prints is shown as text, and markup comes only from the engine.
DISPLAY_OPTIONS = (
    Option("source", SOURCE_PLACES.__contains__, "one of " + ", ".join(SOURCE_PLACES)),
    Option("result", _a_lexer, 'a Pygments language, like result="text" or "diff"'),
    Option("title"),
    Option("tabs", _two_tabs, 'two titles split by |, like tabs="Source|Output"'),
    Option(
        "width", _whole(MAX_WIDTH), f'a positive whole number, like width="80", at most {MAX_WIDTH}'
    ),
    Option("hl_lines", _matches(_HL_LINES), 'line numbers or ranges, like hl_lines="1 3-5"'),
    Option(
        "linenums",
        _linenums,
        f"a first line number (then a step and a special line), each at most {MAX_LINENUMS}, "
        'like linenums="1"',
    ),
)
DISPLAY = tuple(option.name for option in DISPLAY_OPTIONS)
KNOWN = frozenset(BOOK + DISPLAY)
REFUSED = {
    "html": "the book shows what a block printed as text, never as HTML: remove html=",
}


# How a book's executed fences behave (the plugin's `fences` option): markdown-exec's, or the
# engine's own layout, in which a page is one session and what a block prints is shown as text.
MARKDOWN_EXEC = "markdown-exec"
ENGINE = "engine"
FENCES = (MARKDOWN_EXEC, ENGINE)
# markdown-exec's places for the source (`markdown_exec.add_source`); `material-block` is its
# deprecated name for `block`.
MARKDOWN_EXEC_PLACES = (
    *("above", "below", "block", "material-block"),
    *("tabbed-left", "tabbed-right", "console"),
)
# markdown-exec's own options that the engine honours as markdown-exec does (`render.mdexec`),
# and superfences' options of the shown source, which markdown-exec hands on to its fence.
MARKDOWN_EXEC_OPTIONS = (
    Option(
        "source", MARKDOWN_EXEC_PLACES.__contains__, "one of " + ", ".join(MARKDOWN_EXEC_PLACES)
    ),
    Option("result"),
    Option("html"),
    Option("session", _matches(re.compile(r"\S+")), 'a name, like session="setup"'),
    Option("tabs", _two_tabs, 'two titles split by |, like tabs="Source|Output"'),
    Option("idprefix"),
    Option("updatetoc"),
    # markdown-exec runs the block in this folder (from the book's root: `discover.blocks`
    # checks it is one of the book's), with COLUMNS set to `width`; `returncode` is for its
    # shell fences: on a python fence it reads it and ignores it, as the engine does.
    Option("workdir", _matches(re.compile(r"\S+")), 'a folder of the book, like workdir="docs"'),
    Option(
        "width", _whole(MAX_WIDTH), f'a positive whole number, like width="80", at most {MAX_WIDTH}'
    ),
    Option("returncode", _matches(re.compile(r"-?\d+")), 'a whole number, like returncode="1"'),
    *(option for option in DISPLAY_OPTIONS if option.name in ("title", "hl_lines", "linenums")),
)
# What the plugin's `unknown_options` does with an option no fence reads: markdown-exec hands
# it on to the shown source's fence (superfences and other extensions may read it), and so does
# the engine, saying so in the build's log ("warn"); or it fails the build ("error").
UNKNOWN_WARN = "warn"
UNKNOWN_ERROR = "error"
UNKNOWN_CHOICES = (UNKNOWN_WARN, UNKNOWN_ERROR)
log = logging.getLogger("mkdocs.plugins.bookexec")


def check_markdown_exec(
    options: Mapping[str, str], where: str, unknown: str = UNKNOWN_WARN
) -> None:
    """The options of a fence that behaves as markdown-exec's (`fences: markdown-exec`): its
    own and the engine's, each value checked (a BookError names a bad one). An option neither
    reads is handed on as markdown-exec hands it on, and said in the log; a BookError naming
    it and the known ones under `unknown="error"`."""
    offered = (*BOOK_OPTIONS, *MARKDOWN_EXEC_OPTIONS)
    known = {option.name for option in offered}
    strangers = [name for name in options if name not in known]
    if strangers and unknown == UNKNOWN_ERROR:
        raise BookError(
            f"{where}: unknown option '{strangers[0]}' on an executed fence (unknown_options: "
            f"error); remove it or use one of: {', '.join(sorted(known))}"
        )
    for name in strangers:
        # Not a warning: MkDocs' --strict would fail a book markdown-exec builds.
        log.info(
            f"bookexec: {where}: option '{name}' is neither markdown-exec's nor the engine's; "
            "handed on to the shown source's fence, as markdown-exec does (unknown_options: "
            "error refuses it)"
        )
    for option in offered:
        value = options.get(option.name)
        if value is not None and option.valid is not None and not option.valid(value):
            raise BookError(f'{where}: option {option.name}="{value}" must be {option.must_be}')
    if "session" in options and options.get("fresh", "").lower() in TRUE_WORDS:
        raise BookError(
            f'{where}: option fresh="{options["fresh"]}" runs the block alone in a new '
            f'interpreter, so it cannot share session="{options["session"]}": remove one of them'
        )


def check(options: dict[str, str], where: str) -> None:
    """Raise a BookError naming the first unknown option or bad value, and how to fix it."""
    known = ", ".join(sorted(KNOWN))
    for name in options:
        if name in REFUSED:
            raise BookError(f"{where}: option '{name}' is not supported: {REFUSED[name]}")
        if name not in KNOWN:
            raise BookError(
                f"{where}: unknown option '{name}' on an executed fence; "
                f"remove it or use one of: {known}"
            )
    for option in (*BOOK_OPTIONS, *DISPLAY_OPTIONS):
        value = options.get(option.name)
        if value is not None and option.valid is not None and not option.valid(value):
            raise BookError(f'{where}: option {option.name}="{value}" must be {option.must_be}')


def check_lines(options: Mapping[str, str], where: str, code: str) -> None:
    """`hl_lines` counts the snippet's own lines: a number past its last line is a BookError
    (highlighting used to walk every number of a range, and `1-99999999999` never ended)."""
    spec = options.get("hl_lines")
    if spec is None:
        return
    count = len(code.strip("\n").split("\n"))
    numbers = [int(n) for entry in spec.split() for n in entry.split("-")]
    if any(not 1 <= n <= count for n in numbers):
        raise BookError(
            f'{where}: option hl_lines="{spec}" must be line numbers from 1 to {count}, the '
            'snippet\'s lines, like hl_lines="1 3-5"'
        )


def parse_number(
    environ: Mapping[str, str],
    name: str,
    kind: Callable[[str], Number],
    ok: Callable[[Number], bool],
    default: Number,
    unit: str,
) -> Number:
    """The variable `name` read as `kind` (the default when unset), or a BookError naming it
    when it is not `unit` (`ok` says which values are)."""
    text = environ.get(name, "").strip()
    if not text:
        return default
    try:
        value = kind(text)
    except ValueError:
        value = None
    if value is None or not ok(value):
        raise BookError(f"{name}={text!r} is not {unit}; set it to e.g. {default:g} or unset it")
    return value
