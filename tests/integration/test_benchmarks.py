"""The benchmarks edit files the book has: by default, and refusing, before any build, a
`--page` or `--snippet` that names none (appending to a missing snippet would create it, and
every round would time an edit no page reads)."""

from __future__ import annotations

import importlib
import re
import subprocess
import sys

import pytest

from conftest import REPO

BENCHMARKS = REPO / "benchmarks"


@pytest.fixture
def benchmarks(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCHMARKS))  # the scripts import their `common` module
    return {
        name: importlib.import_module(name) for name in ("common", "bench_build", "bench_serve")
    }


@pytest.mark.parametrize("name", ["bench_build", "bench_serve"])
def test_by_default_a_benchmark_edits_a_chapter_and_a_snippet_a_block_runs(benchmarks, name):
    args = benchmarks[name].arguments().parse_args([])
    benchmarks["common"].check_edits(REPO, args.page, args.snippet)  # exits if either is missing
    assert benchmarks["bench_serve"].golden_of(REPO, args.snippet) is not None  # a block runs it


@pytest.mark.parametrize("option", ["--page", "--snippet"])
@pytest.mark.parametrize("script", ["bench_build.py", "bench_serve.py"])
def test_a_benchmark_given_a_missing_file_stops_before_it_builds(script, option, tmp_path):
    missing = "nowhere.md" if option == "--page" else "snippets/nowhere.py"
    proc = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), option, missing, "--rounds", "1"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    shown = "docs/nowhere.md" if option == "--page" else missing
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert f"{option}: the book has no file {shown}" in proc.stderr
    assert "round 1" not in proc.stdout


def test_a_snippet_edit_never_creates_the_snippet(benchmarks, tmp_path):
    (tmp_path / "snippets").mkdir()
    with pytest.raises(
        SystemExit, match=re.escape("--snippet: the book has no file snippets/gone.py")
    ):
        benchmarks["common"].edit_snippet(tmp_path, "snippets/gone.py", 0)
    assert not (tmp_path / "snippets" / "gone.py").exists()
