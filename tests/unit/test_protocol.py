"""The worker protocol: every message survives the pipe as a plain dict, nothing else passes,
and the worker's own imports stay out of a snippet's sight."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading

import pytest

from bookexec._internal.execute import protocol
from bookexec._internal.execute.protocol import (
    BlockError,
    BlockResult,
    BlockStatus,
    EndPage,
    Finished,
    Ready,
    RunBlock,
    Start,
)
from conftest import REPO

pytestmark = pytest.mark.engine

MESSAGES = [
    Start(stack_file="/tmp/stack.txt"),
    Start(
        stack_file="/tmp/s.txt",
        preload=["numpy"],
        probe="pkg.mod.probe",
        flush="pkg.mod.flush",
        hidden_notes=["a note"],
    ),
    Ready(pid=4242),
    RunBlock(code="print('é')\n", snippet="snippets/a.py", limit=1000),
    BlockResult(status=BlockStatus.OK, output="42\n", seconds=0.25),
    BlockResult(
        status=BlockStatus.RAISED,
        output="before\n",
        facts=[{"name": "n", "kind": "exact", "value": "3", "band": None}],
        claims=[{"left": "a", "op": ">=", "right": 2, "says": ""}],
        error=BlockError("KeyError", "builtins.KeyError", "KeyError: 'x'\n", "Traceback...", 3),
    ),
    BlockResult(status=BlockStatus.FLOODED, output="x" * 10, flood_line=2),
    EndPage(),
    Finished(backend="cpu", devices=8),
]


@pytest.mark.parametrize("message", MESSAGES, ids=lambda m: type(m).__name__)
def test_each_message_round_trips_as_plain_data(message):
    data = protocol.encode(message)
    assert json.loads(json.dumps(data)) == data  # plain values only, tagged by op
    assert data["op"] == message.op
    back = protocol.decode(data)
    assert back == message and type(back) is type(message)
    if isinstance(back, BlockResult):
        assert isinstance(back.status, BlockStatus)
        assert back.error is None or isinstance(back.error, BlockError)


def test_messages_cross_a_real_pipe():
    left, right = socket.socketpair()
    parent, child = protocol.Channel(left.detach()), protocol.Channel(right.detach())
    for message in MESSAGES:
        protocol.send(parent, message)
        assert protocol.receive(child) == message
    parent.close()
    with pytest.raises(EOFError):
        protocol.receive(child)
    child.close()


def test_a_frame_larger_than_the_pipe_crosses_whole():
    """A block's output may be megabytes: the frame is written and read in parts."""
    left, right = socket.socketpair()
    parent, child = protocol.Channel(left.detach()), protocol.Channel(right.detach())
    big = BlockResult(status=BlockStatus.OK, output="é" * 3_000_000)
    sender = threading.Thread(target=protocol.send, args=(parent, big))
    sender.start()
    assert protocol.receive(child) == big
    sender.join()
    parent.close()
    child.close()


class Count(int):
    """An int of a snippet's own type, which `marshal` does not write."""


class Scalar:
    """A number of another library's kind (as NumPy's float32), with `__float__` only."""

    def __float__(self) -> float:
        return 2.5


def test_values_of_a_snippets_own_types_cross_as_plain_values():
    left, right = socket.socketpair()
    parent, child = protocol.Channel(left.detach()), protocol.Channel(right.detach())
    facts = [{"name": "n", "kind": "exact", "value": Count(3), "band": None}]
    claims = [{"left": "n", "op": "<=", "right": Scalar(), "says": ""}]
    protocol.send(parent, BlockResult(status=BlockStatus.OK, facts=facts, claims=claims))
    got = protocol.receive(child)
    assert isinstance(got, BlockResult)
    assert got.facts[0]["value"] == 3 and type(got.facts[0]["value"]) is int
    assert got.claims[0]["right"] == 2.5
    parent.close()
    child.close()


@pytest.mark.parametrize(
    "data",
    ["not a dict", {"op": "dance"}, {"op": "ready"}, {"op": "result", "status": "odd"}],
)
def test_a_message_outside_the_protocol_is_refused(data):
    with pytest.raises(protocol.ProtocolError, match="not a worker message"):
        protocol.decode(data)


def test_statuses_are_an_enum_not_bare_strings():
    assert {status.value for status in BlockStatus} == {"ok", "raised", "flooded"}
    decoded = protocol.decode(protocol.encode(BlockResult(status=BlockStatus.RAISED)))
    assert decoded.status is BlockStatus.RAISED


def test_the_worker_imports_nothing_a_snippet_could_notice():
    """A block that counts the modules an import adds, or runs in a fresh interpreter, must
    see what a plain Python has: the book's census goldens depend on it."""
    code = (
        "import sys\n"
        "from bookexec._internal.execute import worker, protocol\n"
        "from bookexec._internal.jax import probe\n"
        "print(sorted(sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO / "hooks", capture_output=True, text=True
    )
    loaded = set(eval(out.stdout))
    heavy = {"dataclasses", "typing", "json", "inspect", "ast", "importlib", "jax", "mkdocs"}
    heavy |= {"multiprocessing", "pickle", "socket", "select", "ctypes", "resource"}
    assert not loaded & heavy, sorted(loaded & heavy)
    assert not any(name.startswith("bookexec._internal.goldens") for name in loaded)
