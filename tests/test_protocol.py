"""The worker protocol: every message survives the pipe's JSON, and nothing else passes."""

from __future__ import annotations

import json
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
def test_each_message_round_trips_as_json(message):
    data = protocol.encode(message)
    assert json.loads(data)["op"] == message.op  # plain JSON on the pipe, tagged by op
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
    [b"not json", b'{"op": "dance"}', b'{"op": "ready"}', b'{"op": "result", "status": "odd"}'],
)
def test_a_message_outside_the_protocol_is_refused(data):
    with pytest.raises(protocol.ProtocolError, match="not a worker message"):
        protocol.decode(data)


def test_statuses_are_an_enum_not_bare_strings():
    assert {status.value for status in BlockStatus} == {"ok", "raised", "flooded"}
    decoded = protocol.decode(protocol.encode(BlockResult(status=BlockStatus.RAISED)))
    assert decoded.status is BlockStatus.RAISED
