"""The shards' pages (issue 57): whole pages, balanced by their blocks' last run times, the same
on every machine that has the same times."""

from __future__ import annotations

import json

import pytest

from bookexec._internal.discover.blocks import Block
from bookexec._internal.errors import BookError
from bookexec._internal.execute.eta import RunTimes
from bookexec._internal.execute.model import BlockRun, Note, PageRun
from bookexec._internal.pipeline.records import RecordExecutor, ShardRecords, assign, source_hash
from bookexec._internal.settings import read


def plan(sizes: dict[str, int]) -> dict[str, list[Block]]:
    return {
        page: [Block(page, i, i + 1, f"b{i}", f"s/{page}{i}.py", "print(1)\n") for i in range(n)]
        for page, n in sizes.items()
    }


def times(tmp_path, seconds: dict[str, float]) -> RunTimes:
    path = tmp_path / "run-times.json"
    path.write_text(json.dumps(seconds))
    return RunTimes(path)


def test_the_heaviest_pages_go_first_each_to_the_lightest_shard(tmp_path):
    pages = plan({"a.md": 1, "b.md": 1, "c.md": 1, "d.md": 1, "empty.md": 0})
    recorded = times(tmp_path, {"a.md#b0": 10.0, "b.md#b0": 6.0, "c.md#b0": 5.0, "d.md#b0": 1.0})
    # a (10) to 1, b (6) to 2, c (5) to 2 (6 < 10), d (1) to 1 (10 < 11); no shard for empty.md
    assert assign(pages, recorded, 2) == [["a.md", "d.md"], ["b.md", "c.md"]]


def test_untimed_blocks_weigh_the_median_and_ties_go_by_path(tmp_path):
    pages = plan({"z.md": 2, "y.md": 1, "x.md": 1})
    # No time at all: each block weighs 1 s; z (2) first, then x and y by path.
    assert assign(pages, RunTimes(None), 3) == [["z.md"], ["x.md"], ["y.md"]]
    assert assign(pages, RunTimes(None), 2) == [["z.md"], ["y.md", "x.md"]]
    known = times(tmp_path, {"y.md#b0": 3.0, "x.md#b0": 5.0})
    # z's blocks weigh the median of the known times, 4 s each: 8 s.
    assert assign(pages, known, 2) == [["z.md"], ["y.md", "x.md"]]


def test_a_page_is_never_split_and_more_shards_than_pages_leave_some_empty():
    pages = plan({"a.md": 3, "b.md": 1})
    assert assign(pages, RunTimes(None), 4) == [["a.md"], ["b.md"], [], []]


def test_the_source_hash_changes_with_a_block_code_id_or_options():
    (block,) = plan({"a.md": 1})["a.md"]
    same = Block("a.md", 0, 1, "b0", "s/a.md0.py", "print(1)\n")
    assert source_hash([block]) == source_hash([same])
    for other in (
        Block("a.md", 0, 1, "b0", "s/a.md0.py", "print(2)\n"),
        Block("a.md", 0, 1, "b1", "s/a.md0.py", "print(1)\n"),
        Block("a.md", 0, 1, "b0", "s/a.md0.py", "print(1)\n", {"timeout": "5"}),
    ):
        assert source_hash([other]) != source_hash([block])


class Stand:
    """A page executor that records what it was asked, for the pages no record covers."""

    cache = None
    jobs = 1

    def __init__(self) -> None:
        self.notes: list[Note] = []
        self.asked: list[str] = []
        self.closed = False

    def submit(self, page: str, blocks: list[Block]) -> object:
        self.asked.append(page)
        self.notes.append(Note(page, f"{page}: ran here"))
        return None

    def ready(self, page: str) -> bool:
        return True

    def pending(self) -> list[str]:
        return []

    def page(self, page: str) -> PageRun:
        return PageRun(page, backend="cpu", devices=1)

    def close(self) -> None:
        self.closed = True

    def stop(self) -> None:
        self.closed = True


def test_a_recorded_page_is_its_record_and_another_runs_on_a_real_executor():
    (block,) = plan({"a.md": 1})["a.md"]
    recorded = PageRun("a.md", [BlockRun(block, output="1\n")], "cpu", 1)
    records = ShardRecords(runs={"a.md": recorded}, notes=[Note("a.md", "a note")])
    made: list[Stand] = []

    def fallback() -> Stand:
        made.append(Stand())
        return made[-1]

    executor = RecordExecutor(records, fallback)
    executor.submit("a.md", [block])
    assert executor.page("a.md") is recorded and not made, "a record runs nothing"
    executor.submit("labs/x.ipynb", [])
    assert executor.page("labs/x.ipynb").backend == "cpu"
    assert made[0].asked == ["labs/x.ipynb"]
    assert [note.message for note in executor.notes] == ["a note", "labs/x.ipynb: ran here"]
    executor.close()
    assert made[0].closed


def test_the_records_option_and_its_variable_and_what_it_refuses():
    assert read({}, {}).records == ""
    assert read({"records": "shards"}, {}).records == "shards"
    assert read({"records": "shards"}, {"BOOK_RECORDS": "/tmp/r"}).records == "/tmp/r"
    with pytest.raises(BookError, match=r"GOLDEN_ONLY='a\.md' runs one page"):
        read({}, {"GOLDEN": "update", "GOLDEN_ONLY": "a.md", "BOOK_RECORDS": "r"})
