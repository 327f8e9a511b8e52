"""The messages between the build (runner) and a worker, and how they cross the pipe.

Each message is a dataclass with an `op` tag; on the pipe it is one JSON object. The build
sends `Start` (what to preload, which probe to run, where to dump stacks), then `RunBlock` for
each block and `Finish` at the end; the worker answers `Ready`, one `BlockResult` per block and
`Finished` (the backend and devices its probe saw).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any, ClassVar


class BlockStatus(StrEnum):
    """How a block ended inside the worker."""

    OK = "ok"  # ran to its end
    RAISED = "raised"  # raised an exception (SystemExit too); the worker lives on
    FLOODED = "flooded"  # wrote more than its output limit and was stopped


class ProtocolError(Exception):
    """A message that is not one of this module's: the two sides disagree."""


@dataclass(frozen=True)
class Start:
    """Build -> worker, first: what to import before the first block, and the probe to run."""

    op: ClassVar[str] = "start"
    stack_file: str
    preload: list[str] = field(default_factory=list)
    probe: str | None = None  # dotted path of a function returning {"backend", "devices"}
    flush: str | None = None  # dotted path of a function run after each block (callback threads)
    hidden_notes: list[str] = field(default_factory=list)  # exception notes the page never shows


@dataclass(frozen=True)
class Ready:
    """Worker -> build: preloaded and ready for its first block."""

    op: ClassVar[str] = "ready"
    pid: int


@dataclass(frozen=True)
class RunBlock:
    """Build -> worker: run one block's code in the page's session."""

    op: ClassVar[str] = "run"
    code: str
    snippet: str
    timeout: float
    limit: int


@dataclass(frozen=True)
class BlockError:
    """What a block raised: its names, the text a page shows, the traceback and the line."""

    type: str
    qualified: str
    shown: str
    traceback: str
    line: int | None = None


@dataclass(frozen=True)
class BlockResult:
    """Worker -> build: what one block printed and recorded, and how it ended."""

    op: ClassVar[str] = "result"
    status: BlockStatus
    output: str = ""
    facts: list[dict] = field(default_factory=list)
    claims: list[dict] = field(default_factory=list)
    error: BlockError | None = None
    flood_line: int | None = None
    seconds: float = 0.0


@dataclass(frozen=True)
class Finish:
    """Build -> worker: the page is done; probe the backend and exit."""

    op: ClassVar[str] = "finish"


@dataclass(frozen=True)
class Finished:
    """Worker -> build, last: the backend the page ran on and how many devices it had."""

    op: ClassVar[str] = "finished"
    backend: str = "none"
    devices: int = 0


Message = Start | Ready | RunBlock | BlockResult | Finish | Finished
_KINDS: dict[str, type] = {
    kind.op: kind for kind in (Start, Ready, RunBlock, BlockResult, Finish, Finished)
}


def encode(message: Message) -> bytes:
    """One message as the JSON bytes sent over the pipe."""
    return json.dumps({"op": message.op, **asdict(message)}).encode("utf-8")


def decode(data: bytes) -> Message:
    """The message these JSON bytes carry; ProtocolError if they carry none."""
    try:
        fields: dict[str, Any] = json.loads(data)
        kind = _KINDS[fields.pop("op")]
        if kind is BlockResult:
            fields["status"] = BlockStatus(fields["status"])
            if fields.get("error") is not None:
                fields["error"] = BlockError(**fields["error"])
        return kind(**fields)
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        raise ProtocolError(f"not a worker message ({error!r}): {data[:200]!r}") from None


def send(conn, message: Message) -> None:
    """Write one message to a `multiprocessing` connection."""
    conn.send_bytes(encode(message))


def receive(conn) -> Message:
    """Read one message from a `multiprocessing` connection."""
    return decode(conn.recv_bytes())
