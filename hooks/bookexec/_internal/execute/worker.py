"""The worker: a child process that holds one page's session and runs its blocks in order.

It talks to the build over a private pipe passed as a file descriptor (`protocol.Channel`), so
the snippet owns `sys.stdout` and `sys.stderr`. Everything a reader running the snippet would see,
`print`, direct writes to either stream, writes from a library's callback threads (flushed by
the runtime's `flush` after each block) and warnings, lands in one ordered capture. It imports
only what the build's `Start` message names (`bookexec._internal.execute.protocol`), and nothing
else a snippet could notice: a block that counts modules sees what a plain interpreter has.

Run as ``python -m bookexec._internal.execute.worker BYTES LIFELINE-FD CHANNEL-FD``: it bounds
itself (`bookexec._internal.execute.launch`), then serves. It must not import MkDocs: it starts once
per page.
"""

from __future__ import annotations

import codecs
import contextlib
import faulthandler
import io
import linecache
import os
import sys
import threading
import time
import types
from collections.abc import Callable, Iterator

from bookexec._internal.execute import protocol, reaper
from bookexec._internal.execute.protocol import BlockError, BlockResult, BlockStatus

# The worker imports nothing a snippet could notice (tests/unit/test_protocol.py), typing included:
# its types are mypy's alone.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import traceback
    from typing import Any

    # Typeshed's name for what `RawIOBase.write` takes (collections.abc.Buffer is 3.12's; the
    # engine runs on 3.10): mypy alone reads it.
    from _typeshed import ReadableBuffer

    from bookexec.facts import Record


# A BaseException, so that `except Exception` in a snippet cannot swallow it.
class OutputFlood(BaseException):
    """Raised inside the snippet when it writes more than the block may show."""


class FdTap:
    """What reaches the worker's file descriptors 1 and 2 below Python's `sys.stdout`: a
    subprocess's output, `os.write(1, ...)`, a C library's or XLA's own logging.

    The build points both at the worker's log file (`handle.WorkerHandle`); the tap reads that
    file through a descriptor of its own, from where the block began, so what a reader running
    the snippet in a terminal would see is captured, bounded and checked like a print."""

    def __init__(self) -> None:
        self._fd = -1
        self._at = 0
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        try:
            if os.fstat(1).st_mode & 0o170000 == 0o100000:  # a regular file (no `stat` import)
                self._fd = os.open("/proc/self/fd/1", os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            self._fd = -1

    def mark(self) -> None:
        """A block begins: what was written before it is not its output."""
        if self._fd >= 0:
            self._at = os.fstat(1).st_size
            self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")

    def take(self, most: int, final: bool = False) -> str:
        """What was written since the last take: at most `most` bytes of it (a flood is never
        read whole), as UTF-8 text (`final`: an unfinished character as U+FFFD)."""
        if self._fd < 0:
            return ""
        try:
            size = os.fstat(1).st_size
            data = (
                os.pread(self._fd, max(0, min(size - self._at, most)), self._at)
                if size > self._at
                else b""
            )
        except OSError:
            return ""
        self._at += len(data)
        return self._decoder.decode(data, final=final)


class Capture:
    """One ordered buffer behind both sys.stdout and sys.stderr; safe from any thread. What
    reached the file descriptors (`FdTap`) joins it before each write and at the block's end."""

    def __init__(self, tap: FdTap | None = None) -> None:
        self._lock = threading.Lock()
        self._parts: list[str] = []
        self._size = 0
        self.limit = 0
        self.flooded = False
        self.tap = tap  # the worker's (`main`); none for a capture made in another process

    def reset(self, limit: int) -> None:
        """Empty the buffer for the next block, with its output limit."""
        with self._lock:
            self._parts, self._size, self.limit, self.flooded = [], 0, limit, False
            if self.tap:
                self.tap.mark()

    def write(self, text: str) -> int:
        """Append text; OutputFlood once the block wrote past its limit."""
        with self._lock:
            if self.flooded:
                raise OutputFlood
            self._add(self._tapped())
            self._add(text)
        return len(text)

    def settle(self) -> None:
        """At the block's end: what reached the file descriptors since the last write."""
        with self._lock:
            if not self.flooded:
                try:  # noqa: SIM105 (the worker imports nothing a snippet would notice)
                    self._add(self._tapped(final=True))
                except OutputFlood:
                    pass  # `flooded` says it

    def _tapped(self, final: bool = False) -> str:
        """What the tap read since the last write: never more than would flood the block."""
        return self.tap.take(self.limit - self._size + 1, final) if self.tap else ""

    def _add(self, text: str) -> None:
        if not text:
            return
        self._size += len(text)
        if self._size > self.limit:
            self.flooded = True
            raise OutputFlood
        self._parts.append(text)

    @property
    def size(self) -> int:
        """Characters the block has written so far."""
        return self._size

    def text(self) -> str:
        """Everything written since the last reset, in order."""
        with self._lock:
            return "".join(self._parts)


def _without_surrogates(text: str) -> str:
    """A lone surrogate (U+D800 to U+DFFF) cannot be encoded; the page shows U+FFFD instead."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in text)
    return text


def _traceback_module() -> types.ModuleType:
    """`traceback`, imported at the first failure, as plain Python imports it to print one:
    it and what it imports (`re`, `textwrap`...) are not loaded before a snippet imports them."""
    import traceback

    return traceback


class Stream(io.TextIOBase):
    """A text stream that writes into the shared capture, UTF-8 like a terminal's.

    Its `buffer` takes bytes, as `sys.stdout.buffer` does. Bytes that are not valid UTF-8 are
    shown as U+FFFD, the replacement character, as a terminal would show them; a character
    split across two writes is still decoded whole.
    """

    encoding = "utf-8"
    errors = "replace"

    def __init__(self, capture: Capture, name: str) -> None:
        self._capture = capture
        self.name = name
        self.buffer = BinaryStream(self)

    def writable(self) -> bool:
        """Always: it is an output stream."""
        return True

    def write(self, text: str) -> int:
        """Write text into the capture, a lone surrogate as U+FFFD."""
        self._capture.write(_without_surrogates(text))
        return len(text)

    def isatty(self) -> bool:
        """Never a terminal: a snippet that asks prints as into a file."""
        return False


class BinaryStream(io.RawIOBase):
    """`sys.stdout.buffer`: bytes, decoded as UTF-8 into the text stream."""

    def __init__(self, text: Stream) -> None:
        self._text = text
        self.reset()

    def reset(self) -> None:
        """Forget any unfinished character (a new block starts)."""
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")

    def writable(self) -> bool:
        """Always: it is an output stream."""
        return True

    def write(self, data: ReadableBuffer) -> int:
        """Decode bytes as UTF-8 into the text stream."""
        data = bytes(data)
        self._text.write(self._decoder.decode(data))
        return len(data)

    def finish(self) -> None:
        """At the end of a block: bytes of an unfinished character become U+FFFD."""
        tail = self._decoder.decode(b"", final=True)
        self.reset()
        if tail:
            self._text.write(tail)


# Frames a failure's traceback shows: a runaway recursion has millions, and formatting them all
# would need more memory than the block that just ran out of it.
_TRACEBACK_FRAMES = 100


def describe_exception(
    error: BaseException,
    snippet: str,
    hidden_notes: tuple[str, ...] = (),
    numbering: Numbering | None = None,
) -> BlockError:
    """What the page shows for an exception, and where in the snippet it was raised: for the
    author, the snippet file's line and the traceback as the file numbers it."""
    kind = type(error)
    line = snippet_line(error, snippet)
    return BlockError(
        type=kind.__name__,
        qualified=f"{kind.__module__}.{kind.__qualname__}",
        shown=shown_text(error, hidden_notes),
        traceback=_traceback(error, snippet, numbering),
        line=numbering.file_line(line) if numbering and line else line,
        memory=at_memory_limit() or _depth(error) > _RUNAWAY_DEPTH or _lost_allocation(error),
    )


def _traceback(error: BaseException, snippet: str, numbering: Numbering | None) -> str:
    """The traceback from the snippet's first frame on, its snippet frames named by the file's
    lines and text (as before hidden lines were numbered as shown)."""
    traceback = _traceback_module()
    if numbering is None:
        kind, start = type(error), _from_snippet(error, snippet)
        return "".join(traceback.format_exception(kind, error, start, limit=_TRACEBACK_FRAMES))
    summary = traceback.TracebackException(
        type(error),
        error,
        _from_snippet(error, snippet),
        limit=_TRACEBACK_FRAMES,
        lookup_lines=False,
        compact=True,
    )
    seen: set[int] = set()
    todo = [summary]
    while todo:
        one = todo.pop()
        if id(one) in seen:
            continue
        seen.add(id(one))
        one.stack[:] = [numbering.as_in_file(frame) for frame in one.stack]
        todo += [e for e in (one.__cause__, one.__context__) if e is not None]
        todo += getattr(one, "exceptions", None) or []
    with numbering.file_text():
        return "".join(summary.format())


def _lost_allocation(error: BaseException) -> bool:
    """CPython's "error return without exception set": a C function returned failure without
    saying why, which under the worker's memory limit is an allocation that failed (seen once
    for a runaway recursion under a loaded machine, not deep enough for `_RUNAWAY_DEPTH`)."""
    return isinstance(error, SystemError) and "without exception set" in str(error)


# Frames deeper than this are a runaway recursion: under a raised recursion limit it ends when
# the worker's memory limit stops Python's stack from growing.
_RUNAWAY_DEPTH = 100_000


def _depth(error: BaseException) -> int:
    depth, tb = 0, error.__traceback__
    while tb is not None:
        depth, tb = depth + 1, tb.tb_next
    return depth


def at_memory_limit() -> bool:
    """The worker holds nearly all the data its limit allows (`bookexec._internal.execute.launch`):
    an error raised now is likely its cause, whatever its type (Python 3.13 reports a stack that
    cannot grow as a SystemError)."""
    try:
        with open("/proc/self/limits") as limits:
            row = next(ln for ln in limits if ln.startswith("Max data size"))
        with open("/proc/self/status") as status:
            data = next(ln for ln in status if ln.startswith("VmData:"))
        limit = row.split()[3]
        return limit.isdigit() and int(data.split()[1]) * 1024 >= 0.8 * int(limit)
    except (OSError, StopIteration, IndexError, ValueError):
        return False


def _from_snippet(error: BaseException, snippet: str) -> types.TracebackType | None:
    """The traceback from the snippet's first frame on: the worker's own frames say nothing."""
    tb = error.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename != snippet:
        tb = tb.tb_next
    return tb or error.__traceback__


def snippet_line(error: BaseException, snippet: str) -> int | None:
    """The last line of the snippet the traceback passes through."""
    # The traceback's own links, not traceback.extract_tb: no object per frame, however deep.
    line, tb = None, error.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == snippet:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def _finish_streams() -> None:
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, Stream):
            stream.buffer.finish()


def shown_text(error: BaseException, hidden_notes: tuple[str, ...] = ()) -> str:
    """The exception as the last lines of a traceback show it: type, message and notes (but
    the notes the runtime hides)."""
    traceback = _traceback_module()
    notes = getattr(error, "__notes__", None)
    # Python 3.10's tracebacks show no notes (they came in 3.11): nothing to hide.
    if notes is None or not hidden_notes or sys.version_info < (3, 11):
        return "".join(traceback.format_exception_only(error))
    error.__notes__ = [n for n in notes if not any(hidden in n for hidden in hidden_notes)]
    try:
        return "".join(traceback.format_exception_only(error))
    finally:
        error.__notes__ = notes


def _past(limit: int, *texts: str) -> bool:
    """Whether any of `texts` is longer than `limit` characters, or all of them together are."""
    return sum(len(text) for text in texts) > limit


def _recorded_texts(facts: list[Record], claims: list[Record]) -> list[str]:
    """The texts a block recorded, as a golden's lines would hold them."""
    fields = [f.get(k) for f in facts for k in ("name", "value")]
    fields += [c.get(k) for c in claims for k in ("left", "right", "says")]
    return [field for field in fields if isinstance(field, str)]


def _take_facts() -> tuple[list[Record], list[Record]]:
    facts = sys.modules.get("bookexec.facts")  # imported only by a snippet that records
    if facts is None:
        return [], []
    taken: tuple[list[Record], list[Record]] = facts.take()
    return taken


def _function(dotted: str | None) -> Callable[[], Any] | None:
    """The function a dotted path names, imported only when asked for."""
    if not dotted:
        return None
    module, _, name = dotted.rpartition(".")
    __import__(module)
    function: Callable[[], Any] = getattr(sys.modules[module], name)
    return function


# compile()'s flag for a syntax tree rather than code (`ast.PyCF_ONLY_AST`): the worker does
# not import `ast`, which a snippet counting its imports would see.
_ONLY_AST = 0x400


class Numbering:
    """A block whose hidden lines would move the line numbers it prints: its code is compiled
    so that each line runs as the line `lines` gives it
    (`bookexec._internal.discover.hidden.numbering`: a shown line as the reader's copy numbers it, a
    hidden one past the shown code's end), and `linecache` holds the shown code, so a traceback or
    warning quotes the line the reader has. The author's messages are read back to the file's
    lines."""

    def __init__(self, code: str, snippet: str, lines: list[int], shown: str) -> None:
        self.code, self.snippet, self.lines, self.shown = code, snippet, lines, shown
        self.count = len(shown.splitlines())
        # Each line as run, back to the file's: the line holding code first, since a blank
        # line the page leaves out runs as the shown line next to it.
        self._back: dict[int, int] = {}
        text = code.splitlines()
        for blank in (False, True):
            for number, line in enumerate(lines, start=1):
                if (not text[number - 1].strip()) is blank:
                    self._back.setdefault(line, number)

    def compile(self) -> types.CodeType:
        """The block's code, numbered as shown; the shown text registered for its file."""
        # dont_inherit: the worker's own `from __future__` must not reach the block
        tree = compile(self.code, self.snippet, "exec", _ONLY_AST, dont_inherit=True)
        todo = [tree]
        while todo:
            node = todo.pop()
            self._renumber(node)
            for name in node._fields:
                value = getattr(node, name, None)
                for child in value if isinstance(value, list) else [value]:
                    if hasattr(child, "_fields"):
                        todo.append(child)
        self._register(self.shown)
        code: types.CodeType = compile(tree, self.snippet, "exec", dont_inherit=True)
        return code

    def _at(self, line: int) -> int:
        return self.lines[line - 1] if 1 <= line <= len(self.lines) else line

    def _renumber(self, node: Any) -> None:
        start, end = getattr(node, "lineno", None), getattr(node, "end_lineno", None)
        if not isinstance(start, int):
            return
        node.lineno = self._at(start)
        if isinstance(end, int):
            # A node from a shown line to a hidden one stays in order; one whose lines all
            # meet on one shown line keeps its columns in order too (compile checks both).
            node.end_lineno = max(self._at(end), node.lineno)
            if node.end_lineno == node.lineno and end != start:
                node.end_col_offset = max(node.end_col_offset or 0, node.col_offset or 0)

    def file_line(self, line: int) -> int:
        """The file's line for a line as the block ran it."""
        if line > self.count:
            return line - self.count
        return self._back.get(line, line)

    def as_in_file(self, frame: traceback.FrameSummary) -> traceback.FrameSummary:
        """A traceback frame named by the file's line, if it is the snippet's."""
        if frame.filename != self.snippet or frame.lineno is None:
            return frame
        if sys.version_info < (3, 11):  # a 3.10 frame has no end line, nor columns
            line_only: traceback.FrameSummary = _traceback_module().FrameSummary(
                frame.filename, self.file_line(frame.lineno), frame.name, lookup_line=False
            )
            return line_only
        end = frame.end_lineno
        in_file: traceback.FrameSummary = _traceback_module().FrameSummary(
            frame.filename,
            self.file_line(frame.lineno),
            frame.name,
            lookup_line=False,
            end_lineno=self.file_line(end) if end is not None else None,
            colno=frame.colno,
            end_colno=frame.end_colno,
        )
        return in_file

    def file_text(self) -> _Registered:
        """While in it, `linecache` quotes the file's lines (the author's traceback)."""
        return _Registered(self, self.code, self.shown)

    def _register(self, text: str) -> None:
        # No modification time: linecache.checkcache keeps the entry however the file changes.
        linecache.cache[self.snippet] = (len(text), None, text.splitlines(True), self.snippet)


class _Registered:
    """A context in which `linecache` holds one text for the snippet, and then another."""

    def __init__(self, numbering: Numbering, inside: str, after: str) -> None:
        self._numbering, self._inside, self._after = numbering, inside, after

    def __enter__(self) -> None:
        self._numbering._register(self._inside)

    def __exit__(self, *exc: object) -> None:
        self._numbering._register(self._after)


# Modules whose code is in the cache key already (the engine's own, `execute.cache`) or that
# are the blocks' own globals.
_KEYED = frozenset({"__main__", "__mp_main__", "bookexec"})


def _module_files(module: object) -> list[str]:
    """A top-level module's folders (a package's `__path__`) or file, read from its own
    namespace: a module's `__getattr__` is never asked, so nothing runs or imports."""
    if not isinstance(module, types.ModuleType):
        return []
    names = module.__dict__
    where = names.get("__path__")
    try:
        found = list(where) if where is not None else [names.get("__file__")]
    except Exception:  # a path object of a snippet's own that cannot be listed
        return []
    return [os.path.realpath(p) for p in found if isinstance(p, str) and os.path.isabs(p)]


class Session:
    """One page's `__main__`, in which its blocks run in order."""

    def __init__(self, capture: Capture, start: protocol.Start) -> None:
        self.capture = capture
        self.stack_file = start.stack_file
        self._flush = _function(start.flush) or (lambda: None)
        self.hidden_notes = tuple(start.hidden_notes)
        # os.getpid as the worker started: a block may replace os.getpid with a mock.
        self._getpid = os.getpid
        self.pid = self._getpid()
        # If the build has to kill us, it first asks for this dump, which says which snippet
        # line was running. A signal, not faulthandler's timer: that is a thread, and no thread
        # of the engine may run beside a block (a fork would be warned about it).
        self._stacks = open(self.stack_file, "w")  # noqa: SIM115 (open while the worker lives)
        faulthandler.register(protocol.STACK_SIGNAL, file=self._stacks, all_threads=True)
        self.module = self._new_main()
        self.named: dict[str, types.ModuleType] = {}  # markdown-exec's sessions, by name
        # What each block's output can depend on beyond its code, sent with its result: every
        # top-level module outside the standard library loaded by then, and where its code is.
        self.imported: dict[str, list[str]] = {}
        self._examined: set[str] = set()

    def _note_imports(self) -> None:
        """Add the top-level modules loaded since the last block to `imported`."""
        for name in [n for n in list(sys.modules) if n not in self._examined]:
            self._examined.add(name)
            top = name.partition(".")[0]
            if top in self.imported or top in _KEYED or top in sys.stdlib_module_names:
                continue
            files = _module_files(sys.modules.get(top))
            if files:
                self.imported[top] = files

    def _new_main(self) -> types.ModuleType:
        """A fresh `__main__`, which `sys.modules` names while its blocks run."""
        module = types.ModuleType("__main__")
        module.__dict__["__builtins__"] = __builtins__
        sys.modules["__main__"] = module
        return module

    def namespace(self, session: str | None) -> types.ModuleType:
        """The `__main__` a block runs in (`protocol.RunBlock.session`)."""
        if session is None:
            module = self.module
        elif not session:
            return self._new_main()  # markdown-exec's block without a session: fresh globals
        else:
            module = self.named.get(session) or self.named.setdefault(session, self._new_main())
        sys.modules["__main__"] = module
        return module

    def _leave_if_forked(self) -> None:
        """A child the snippet forked came back out of it: it must not go on as a second
        worker on the build's pipe (nor flush a runtime that a fork cannot use)."""
        if self._getpid() != self.pid:
            os._exit(0)

    def run(
        self,
        code: str,
        snippet: str,
        limit: int,
        lines: list[int] | None = None,
        shown: str | None = None,
        session: str | None = None,
        workdir: str = "",
        width: int = 0,
    ) -> BlockResult:
        """Run one block's code; what it printed and recorded, and how it ended (its timeout
        is the build's to enforce). With `lines`, each line runs as the line it gives; in
        the globals `session` names (`namespace`); in `workdir` with COLUMNS=`width`, where
        given, as markdown-exec runs a block with those options (`as_markdown_exec`)."""
        with as_markdown_exec(workdir, width):
            return self._run(code, snippet, limit, lines, shown, session)

    def _run(
        self,
        code: str,
        snippet: str,
        limit: int,
        lines: list[int] | None,
        shown: str | None,
        session: str | None,
    ) -> BlockResult:
        module = self.namespace(session)
        self.capture.reset(limit)
        error = None
        flooded, flood_line = False, None
        numbering = Numbering(code, snippet, lines, shown or "") if lines else None
        start = time.perf_counter()
        try:
            compiled = (
                numbering.compile()
                if numbering
                else compile(code, snippet, "exec", dont_inherit=True)
            )
            exec(compiled, module.__dict__)
            self._leave_if_forked()
            self._flush()
            _finish_streams()
        except OutputFlood as exc:
            flooded, flood_line = True, snippet_line(exc, snippet)
            if numbering and flood_line:
                flood_line = numbering.file_line(flood_line)
        except BaseException as exc:  # SystemExit too: report it, stay alive
            self._leave_if_forked()
            try:
                self._flush()
                _finish_streams()
            except OutputFlood:
                flooded = True
            error = describe_exception(exc, snippet, self.hidden_notes, numbering)
        finally:
            self._leave_if_forked()
            seconds = time.perf_counter() - start
        # Nothing a block started outlives it (bookexec._internal.execute.reaper).
        reaper.kill_descendants()
        self.capture.settle()  # what its processes wrote to the descriptors, to the end
        self._note_imports()
        facts, claims = _take_facts()
        if error is not None and _past(limit - self.capture.size, error.shown, error.traceback):
            # An exception's message is output like a print's: bounded by the same limit.
            flooded, flood_line, error = True, error.line, None
        if _past(limit, *_recorded_texts(facts, claims)):  # a golden would hold them all
            flooded, facts, claims = True, [], []
        if flooded or self.capture.flooded:
            status = BlockStatus.FLOODED
        else:
            status = BlockStatus.RAISED if error else BlockStatus.OK
        return BlockResult(
            status=status,
            output=self.capture.text(),
            facts=facts,
            claims=claims,
            error=error,
            flood_line=flood_line,
            seconds=seconds,
            imported=self.imported,
        )


@contextlib.contextmanager
def as_markdown_exec(workdir: str, width: int) -> Iterator[None]:
    """markdown-exec's `workdir` and `width`: the block runs in that folder (from the book's
    root, where the worker runs) and sees COLUMNS=width; both are as they were after it."""
    folder = os.getcwd()
    columns = os.environ.get("COLUMNS")
    try:
        if workdir:
            os.chdir(workdir)
        if width:
            os.environ["COLUMNS"] = str(width)
        yield
    finally:
        if workdir:  # a block's own os.chdir() lasts, as under markdown-exec
            os.chdir(folder)
        if width and columns is None:
            os.environ.pop("COLUMNS", None)
        elif width and columns is not None:
            os.environ["COLUMNS"] = columns


def main(fd: int) -> None:
    """Serve one page: preload, then run blocks until the build says finish."""
    conn = protocol.Channel(fd)
    capture = Capture(FdTap())
    sys.stdin = io.StringIO("")
    sys.stdout = Stream(capture, "<stdout>")
    sys.stderr = Stream(capture, "<stderr>")
    start = protocol.receive(conn)
    if not isinstance(start, protocol.Start):
        raise protocol.ProtocolError(f"expected a start message, got {start!r}")
    try:
        for module in start.preload:
            __import__(module)
    except BaseException:  # to the worker's log (the real stderr), which the build shows
        _traceback_module().print_exc(file=sys.__stderr__)
        raise SystemExit(1) from None
    session = Session(capture, start)
    protocol.send(conn, protocol.Ready(pid=os.getpid()))
    while True:
        try:
            message = protocol.receive(conn)
        except EOFError:
            return
        if isinstance(message, protocol.RunBlock):
            result = session.run(
                message.code,
                message.snippet,
                message.limit,
                message.lines,
                message.shown,
                message.session,
                message.workdir,
                message.width,
            )
            protocol.send(conn, result)
        elif isinstance(message, protocol.EndPage):
            probe = _function(start.probe)
            seen = probe() if probe else {}
            reaper.kill_descendants()
            protocol.send(conn, protocol.Finished(**seen))
            return


if __name__ == "__main__":
    # BYTES LIFELINE-FD CHANNEL-FD: bounded first (`bookexec._internal.execute.launch`), then
    # serving.
    loaded = set(sys.modules)
    from bookexec._internal.execute import launch

    memory, lifeline, channel = (int(arg) for arg in sys.argv[1:4])
    launch.bound(memory, lifeline)
    launch.forget_imports(loaded)
    main(channel)
