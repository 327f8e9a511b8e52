"""The time left a build's block lines say (issue 55): from the recorded run times of the blocks
that run, and not at all when no run time is recorded (a fresh clone)."""

from __future__ import annotations

import json

import pytest

from bookexec._internal.discover.blocks import Block
from bookexec._internal.execute.eta import RunTimes
from bookexec._internal.execute.progress import Progress

pytestmark = pytest.mark.engine


def blocks(page: str, *ids: str) -> list[Block]:
    return [
        Block(page, i, i + 1, name, f"snippets/{name}.py", "pass\n") for i, name in enumerate(ids)
    ]


def lines_of(times: RunTimes, run: list[Block], planned: dict[str, list[Block]]) -> list[str]:
    said: list[str] = []
    progress = Progress(said.append, times=times)
    progress.expect(len(planned), sum(map(len, planned.values())), planned, jobs=1)
    progress.running(run)
    for block in run:
        progress.block_done(block.where, 0.1, cached=False, block=block)
    return [line for line in said if "blocks done" in line]


def test_only_the_blocks_that_run_count_toward_the_time_left(tmp_path):
    path = tmp_path / "run-times.json"
    path.write_text(json.dumps({"a.md#one": 4.0, "a.md#two": 6.0, "b.md#big": 600.0}))
    a, b = blocks("a.md", "one", "two"), blocks("b.md", "big")
    said = lines_of(RunTimes(path), a, {"a.md": a, "b.md": b})  # b.md's block is cached
    assert "about 6 s left" in said[0] and "about 0 s left" in said[1], said


def test_with_no_run_time_recorded_no_time_left_is_said(tmp_path):
    a = blocks("a.md", "one", "two")
    said = lines_of(RunTimes(tmp_path / "none.json"), a, {"a.md": a})
    assert said and not any("left" in line for line in said), said
    assert said[0].startswith("bookexec: [1/2 blocks done] docs/a.md: 1/2 blocks"), said
