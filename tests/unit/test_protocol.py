"""The worker protocol: every message survives the pipe as a plain dict, nothing else passes,
and the worker's own imports stay out of a snippet's sight."""

from __future__ import annotations

import json
import subprocess
import sys
from multiprocessing import Pipe

import pytest

from bookexec.execute import protocol
from bookexec.execute.protocol import (
    BlockError,
    BlockResult,
    BlockStatus,
    Finish,
    Finished,
    Ready,
    RunBlock,
    Start,
)
from conftest import REPO

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
    RunBlock(code="print('é')\n", snippet="snippets/a.py", timeout=2.5, limit=1000),
    BlockResult(status=BlockStatus.OK, output="42\n", seconds=0.25),
    BlockResult(
        status=BlockStatus.RAISED,
        output="before\n",
        facts=[{"name": "n", "kind": "exact", "value": "3", "band": None}],
        claims=[{"left": "a", "op": ">=", "right": 2, "says": ""}],
        error=BlockError("KeyError", "builtins.KeyError", "KeyError: 'x'\n", "Traceback...", 3),
    ),
    BlockResult(status=BlockStatus.FLOODED, output="x" * 10, flood_line=2),
    Finish(),
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
    parent, child = Pipe()
    for message in MESSAGES:
        protocol.send(parent, message)
        assert protocol.receive(child) == message


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
        "from bookexec.execute import worker, protocol\n"
        "from bookexec.jax import probe\n"
        "print(sorted(sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO / "hooks", capture_output=True, text=True
    )
    loaded = set(eval(out.stdout))
    heavy = {"dataclasses", "typing", "json", "inspect", "ast", "importlib", "jax", "mkdocs"}
    assert not loaded & heavy, sorted(loaded & heavy)
    assert not any(name.startswith("bookexec.goldens") for name in loaded)
