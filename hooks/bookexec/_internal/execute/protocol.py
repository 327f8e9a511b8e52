"""The messages between the build (runner) and a worker, and how they cross the pipe.

The build sends `Start` (what to preload, which probe to run, where to dump stacks), then
`RunBlock` for each block and `Finish` at the end; the worker answers `Ready`, one
`BlockResult` per block and `Finished` (the backend and devices its probe saw).

On the pipe each message is a plain dict of strings, numbers, lists and None, tagged by its
`op`, written as one frame: its length, then the dict in `marshal`'s format (`Channel`). This
module runs in every worker before the first block, so it imports nothing a snippet could
notice (no dataclasses, typing, json, pickle or `multiprocessing`: a snippet that counts the
modules an import adds, or that runs in a fresh interpreter, must see what a fresh Python has).
`marshal` is loaded in every Python already: the import system reads bytecode with it.
"""

from __future__ import annotations

import marshal
from enum import Enum

# os's functions as the worker started: a block may replace `os.read` or `os.write` with a mock.
from os import close as _close
from os import read as _read
from os import write as _write

# The signal on which a worker dumps every thread's stack into its `Start.stack_file`, asked
# by the build before it kills a block that ran out of time. Linux's SIGRTMAX, as a number: the
# worker must not import `signal`; a snippet is unlikely to send it.
STACK_SIGNAL = 64


class BlockStatus(str, Enum):
    """How a block ended inside the worker."""

    # str() is the value, as a StrEnum's (3.11+; the engine runs on 3.10): the wire format.
    def __str__(self) -> str:
        return str(self.value)

    OK = "ok"  # ran to its end
    RAISED = "raised"  # raised an exception (SystemExit too); the worker lives on
    FLOODED = "flooded"  # wrote more than its output limit and was stopped


class ProtocolError(Exception):
    """A message that is not one of this module's: the two sides disagree."""


class Message:
    """A message: its fields are its `__slots__`; equal when of one kind with equal fields."""

    __slots__: tuple[str, ...] = ()
    op = ""

    def fields(self) -> dict[str, object]:
        """The message's fields by name, as they are."""
        return {name: getattr(self, name) for name in self.__slots__}

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.fields() == self.fields()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        args = ", ".join(f"{name}={value!r}" for name, value in self.fields().items())
        return f"{type(self).__name__}({args})"


class Start(Message):
    """Build -> worker, first: what to import before the first block, and the probe to run."""

    __slots__ = ("flush", "hidden_notes", "preload", "probe", "stack_file")
    op = "start"

    def __init__(
        self,
        stack_file: str,
        preload: list[str] | None = None,
        probe: str | None = None,  # dotted path of a function returning {"backend", "devices"}
        flush: str | None = None,  # dotted path of a function run after each block
        hidden_notes: list[str] | None = None,  # exception notes the page never shows
    ) -> None:
        self.stack_file = stack_file
        self.preload = list(preload or [])
        self.probe = probe
        self.flush = flush
        self.hidden_notes = list(hidden_notes or [])


class Ready(Message):
    """Worker -> build: preloaded and ready for its first block."""

    __slots__ = ("pid",)
    op = "ready"

    def __init__(self, pid: int) -> None:
        self.pid = pid


class RunBlock(Message):
    """Build -> worker: run one block's code in the page's session."""

    __slots__ = (
        *("code", "limit", "lines", "session", "shown", "snippet"),
        *("width", "workdir"),
    )
    op = "run"

    def __init__(
        self,
        code: str,
        snippet: str,
        limit: int,
        lines: list[int] | None = None,  # the line each line of code runs as, if not its own
        shown: str | None = None,  # the code the reader sees, which those lines number
        # The globals it runs in: None, the page's one session; "", fresh ones of its own; a
        # name, that named session's, made at its first block (markdown-exec's `session`).
        session: str | None = None,
        # markdown-exec's `workdir` (the folder it runs in, from the book's root; "": there)
        # and `width` (COLUMNS while it runs; 0: as it is).
        workdir: str = "",
        width: int = 0,
    ) -> None:
        self.workdir = workdir
        self.width = width
        self.code = code
        self.snippet = snippet
        self.limit = limit
        self.lines = lines
        self.shown = shown
        self.session = session


class BlockError(Message):
    """What a block raised: its names, the text a page shows, the traceback and the line."""

    __slots__ = ("line", "memory", "qualified", "shown", "traceback", "type")
    op = "error"

    def __init__(
        self,
        type: str,
        qualified: str,
        shown: str,
        traceback: str,
        line: int | None = None,
        memory: bool = False,  # the worker was at its memory limit when this was raised
    ) -> None:
        self.type, self.qualified, self.shown = type, qualified, shown
        self.traceback, self.line, self.memory = traceback, line, memory


class BlockResult(Message):
    """Worker -> build: what one block printed and recorded, and how it ended."""

    __slots__ = (
        "claims",
        "error",
        "facts",
        "flood_line",
        "imported",
        "output",
        "seconds",
        "status",
    )
    op = "result"

    def __init__(
        self,
        status: BlockStatus,
        output: str = "",
        facts: list[dict[str, object]] | None = None,
        claims: list[dict[str, object]] | None = None,
        error: BlockError | None = None,
        flood_line: int | None = None,
        seconds: float = 0.0,
        # Each top-level module not the standard library's found loaded after the block (its
        # page's and its own imports): its files or folders (`worker.Session.imported`).
        imported: dict[str, list[str]] | None = None,
    ) -> None:
        self.status = status
        self.output = output
        self.facts = list(facts or [])
        self.claims = list(claims or [])
        self.error = error
        self.flood_line = flood_line
        self.seconds = seconds
        self.imported = dict(imported or {})


class EndPage(Message):
    """Build -> worker: the page is done; probe the backend and exit."""

    __slots__ = ()
    op = "finish"


class Finished(Message):
    """Worker -> build, last: the backend the page ran on and how many devices it had."""

    __slots__ = ("backend", "devices")
    op = "finished"

    def __init__(self, backend: str = "none", devices: int = 0) -> None:
        self.backend = backend
        self.devices = devices


_KINDS: dict[str, type[Message]] = {
    kind.op: kind for kind in (Start, Ready, RunBlock, BlockResult, EndPage, Finished)
}


def encode(message: Message) -> dict[str, object]:
    """One message as the plain dict sent over the pipe."""
    fields = message.fields()
    if isinstance(message, BlockResult):
        fields["status"] = str(message.status)
        fields["error"] = message.error.fields() if message.error else None
    return {"op": message.op, **fields}


def decode(data: object) -> Message:
    """The message a plain dict carries; ProtocolError if it carries none."""
    try:
        fields = dict(data)  # type: ignore[call-overload]
        kind = _KINDS[fields.pop("op")]
        if kind is BlockResult:
            fields["status"] = BlockStatus(fields["status"])
            if fields.get("error") is not None:
                fields["error"] = BlockError(**fields["error"])
        return kind(**fields)
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        raise ProtocolError(f"not a worker message ({error!r}): {data!r:.200}") from None


_HEADER = 4  # a frame's length, in bytes, big-endian, before the frame
_MARSHAL_VERSION = 4  # written and read by every Python 3 the engine supports


class Channel:
    """One end of the private pipe between the build and a worker: messages as frames, on a
    file descriptor this object owns. Blocking; the build waits for a frame with `select`
    before it reads one (`bookexec._internal.execute.handle`)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    @property
    def closed(self) -> bool:
        """Whether `close` was called: the descriptor is no longer this channel's."""
        return self.fd < 0

    def fileno(self) -> int:
        """The descriptor, to wait on (`select`)."""
        return self.fd

    def send(self, data: object) -> None:
        """Write one frame; OSError once the other end is gone, ValueError once closed."""
        # marshal checks the types as it writes (ValueError), where mypy cannot.
        try:
            payload = marshal.dumps(data, _MARSHAL_VERSION)  # type: ignore[arg-type]
        except ValueError:  # a value of a snippet's own type (an int or str subclass...)
            payload = marshal.dumps(_plain(data), _MARSHAL_VERSION)  # type: ignore[arg-type]
        frame = memoryview(len(payload).to_bytes(_HEADER, "big") + payload)
        while frame:
            frame = frame[_write(self._open(), frame) :]

    def recv(self) -> object:
        """Read one frame; EOFError once the other end is gone."""
        size = int.from_bytes(self._exactly(_HEADER), "big")
        return marshal.loads(self._exactly(size))

    def close(self) -> None:
        """Close the descriptor; the other end reads the end of the pipe. Safe twice."""
        if self.fd >= 0:
            fd, self.fd = self.fd, -1
            _close(fd)

    def _open(self) -> int:
        if self.fd < 0:
            raise ValueError("the channel is closed")
        return self.fd

    def _exactly(self, size: int) -> bytes:
        parts: list[bytes] = []
        while size:
            part = _read(self._open(), min(size, 1 << 20))
            if not part:
                raise EOFError("the other end of the channel is gone")
            parts.append(part)
            size -= len(part)
        return b"".join(parts)


def _plain(value: object) -> object:
    """`value` in the types `marshal` writes: a subclass of int, float or str as its base
    value, a number of another kind (NumPy's) as an int or a float, anything else as text."""
    if value is None or type(value) in (bool, int, float, str):
        return value
    if isinstance(value, dict):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    for kind in (bool, int, float, str):
        if isinstance(value, kind):
            return kind(value)
    if hasattr(value, "__index__"):
        return int(value)
    if hasattr(value, "__float__"):
        return float(value)
    return str(value)


def send(channel: Channel, message: Message) -> None:
    """Write one message to the channel."""
    channel.send(encode(message))


def receive(channel: Channel) -> Message:
    """Read one message from the channel; EOFError once the other end is gone."""
    return decode(channel.recv())
