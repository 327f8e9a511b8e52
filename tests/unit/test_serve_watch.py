"""`bookexec._internal.serve.session.unwatched`: the serve asks MkDocs to watch a folder only when
its `docs_dir` and `watch:` do not cover it. MkDocs polls each folder it is given in a thread of its
own; the real book's snippet folders, each under its `watch: [snippets]`, were polled twice
(issue 55). The real `mkdocs serve` is tests/e2e/test_serve_truth.py."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from bookexec._internal.serve.session import unwatched

pytestmark = pytest.mark.engine


def test_a_folder_inside_one_mkdocs_watches_is_left_out(tmp_path: Path):
    config = SimpleNamespace(
        docs_dir=str(tmp_path / "docs"),
        watch=[str(tmp_path / "snippets"), str(tmp_path / "tests" / "golden")],
    )
    folders = [
        tmp_path / "snippets" / "chapter",  # inside `watch:`
        tmp_path / "tests" / "golden",  # the same folder
        tmp_path / "docs" / "labs",  # inside docs_dir
        tmp_path / "snippets-other",  # beside one, not inside: its name only starts alike
        tmp_path / "elsewhere" / "chapter",
    ]
    kept = unwatched(folders, config)
    assert kept == [tmp_path / "snippets-other", tmp_path / "elsewhere" / "chapter"], kept


def test_with_no_watch_list_only_docs_dir_covers(tmp_path: Path):
    config = SimpleNamespace(docs_dir=str(tmp_path / "docs"), watch=[])
    folders = [tmp_path / "snippets" / "chapter", tmp_path / "docs"]
    assert unwatched(folders, config) == [tmp_path / "snippets" / "chapter"]
