"""The scale bench (issue 57), run as a maintainer runs it (`./book bench shards`) at a tiny
size: a generated book of 40 blocks built on one machine and as 2 shards side by side, and the
judge and render timed at 20 and 40 blocks. Its table has every row, each time beside the load
it ran at, and the single build and the judge over the shards give the same verdict, every
block checked clean. Nothing here depends on how fast the machine is."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import REPO

pytestmark = pytest.mark.build

STEPS = [
    "single cold build",
    "single cold build, one page at a time",
    "its blocks' own run time (run-times.json)",
    "engine overhead (one page at a time - blocks' own)",
    "shard 1/2",
    "shard 2/2",
    "2 shards side by side (the slowest)",
    "judge (build --records)",
    "sharded total (slowest shard + judge)",
]


@pytest.fixture(scope="module")
def bench(tmp_path_factory) -> tuple[subprocess.CompletedProcess[str], dict]:
    out = tmp_path_factory.mktemp("bench-shards") / "shards.json"
    tiny = ["--blocks", "40", "--shards", "2", "--sizes", "20,40", "--json", str(out)]
    proc = subprocess.run(
        [sys.executable, "-m", "jaxbook.cli", "bench", "shards", *tiny],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc, json.loads(out.read_text())


def cells(row: str) -> list[str]:
    return [cell.strip() for cell in row.strip().strip("|").split("|")]


def test_the_single_build_and_the_judge_over_the_shards_agree(bench):
    proc, result = bench
    clean = {"checked": 40, "failed": 0, "drifted": 0, "new": 0, "stale": 0}
    assert result["verdicts"] == {"single": clean, "sharded": clean}, proc.stdout
    assert result["verdicts_agree"] is True
    assert f"verdicts agree: {clean}" in proc.stdout


def test_the_table_has_every_step_each_beside_its_load(bench):
    proc, result = bench
    table = result["table"]
    assert "\n".join(table) in proc.stdout, "the JSON holds the printed table"
    header = cells(table[0])
    assert header[-1] == "load before", header
    names = [cells(row)[0] for row in table[2:]]
    assert [name.split(" (blocks' own")[0] for name in names] == STEPS, names
    assert all(len(cells(row)) == len(header) for row in table), table
    timed = [row for row in table[2:] if cells(row)[-1]]
    assert len(timed) == 5, "both single builds, each shard and the judge say their load"
    shards = result["shards"]
    assert [s["blocks"] for s in shards] == [20, 20], "each shard one page of the 2"
    assert all(s["seconds"] and s["loads"] for s in shards)
    assert result["overhead_ms_per_block"] == pytest.approx(
        (result["single_one_page_at_a_time"]["median"] - result["own_seconds"]) / 40 * 1000,
        abs=0.1,
    )


def test_the_judge_and_the_render_are_timed_at_each_size(bench):
    proc, result = bench
    assert [size["blocks"] for size in result["sizes"]] == [20, 40]
    rows = [cells(row) for row in result["growth_table"][2:4]]
    assert [row[0] for row in rows] == ["20", "40"]
    assert all(len(row) == 9 for row in rows), rows
    assert set(result["growth"]) == {"judge", "render"}
    for name, ratio in result["growth"].items():
        assert f"{name}: time per block at 40 / at 20 blocks = {ratio:.2f}" in proc.stdout
