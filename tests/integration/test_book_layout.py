"""Every message and every folder the engine uses comes from the book's configuration.

A book whose `docs_dir` is `src` and whose golden folder is `my-goldens` (and whose snippets
live in `code/`) hears of `src/...` and `my-goldens/...`, never of this repository's `docs/`
and `tests/golden/`: in a failure, a drift and its diff, a missing golden, the golden's own
header, the progress lines, the GitHub annotations and job summary; and the read-only watch
guards its own folders, so a block that writes into `my-goldens/`, `src/` or `code/` fails.
"""

from __future__ import annotations

import re

import pytest

from bookexec._internal.goldens.compare import compare
from bookexec._internal.pipeline.judge import serve_message
from conftest import Site

pytestmark = pytest.mark.build

CONFIG = """\
site_name: a book laid out its own way
docs_dir: src
plugins:
  - executed-book:
      goldens: my-goldens
markdown_extensions:
  - pymdownx.superfences
  - pymdownx.snippets:
      base_path: !relative $config_dir
      check_paths: true
"""
PAGE = """\
# Page

```python exec="on" id="good"
print(6 * 7)
```

```python exec="on" id="boom"
raise ValueError("on purpose")
```

```python exec="on" id="planter"
--8<-- "code/planter.py"
```
"""
# Writes into each of the book's own folders, none of which is this repository's.
PLANTER = """\
import os
import time

time.sleep(0.3)  # after the blocks before it: only this one ran when the files appeared

for path in ("my-goldens/planted.txt", "code/planted.txt", "src/planted.txt"):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    open(path, "w").write("planted")
"""
# A path that names this repository's layout rather than the book's.
_THIS_REPOSITORY = re.compile(r"(?<![\w/])(?:docs|tests/golden|snippets)/")


def test_a_book_with_its_own_folders_hears_only_of_them(tmp_path):
    root = tmp_path / "book"
    for name, text in {
        "mkdocs.yml": CONFIG,
        "src/page.md": PAGE,
        "code/planter.py": PLANTER,
    }.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)

    update = Site(root).build("update")
    said = update.output
    assert update.returncode != 0, said  # a failure and a read-only breach: refused
    assert "FAILED: page src/page.md, block 'boom', snippet src/page.md (inline)" in said
    assert "src/page.md:7 (block 'boom', inline code)" in said
    for path in ("my-goldens/planted.txt", "code/planted.txt", "src/planted.txt"):
        assert (
            f"src/page.md:11 (block 'planter', snippet code/planter.py): created {path} while "
            "it ran; the book is read-only to its blocks" in said
        ), said
    assert re.search(r"\] src/page\.md: 3 run", said), said  # the page's progress line
    golden = root / "my-goldens" / "page" / "good.txt"
    assert golden.read_text().startswith("block: src/page.md#good\nsnippet: src/page.md (inline)\n")
    assert not _THIS_REPOSITORY.search(said), said

    (root / "src" / "page.md").write_text(
        PAGE.replace("6 * 7", "6 * 8") + '\n```python exec="on" id="fresh"\nprint(1)\n```\n'
    )
    summary = tmp_path / "summary.md"
    check = Site(root).build(GITHUB_ACTIONS="true", GITHUB_STEP_SUMMARY=str(summary))
    said = check.output
    assert check.returncode != 0, said
    assert (
        "DRIFTED (text): page src/page.md, block 'good', snippet src/page.md (inline), golden "
        "my-goldens/page/good.txt" in said
    ), said
    assert "--- my-goldens/page/good.txt (golden)\n+++ src/page.md#good (this build)" in said
    assert "NEW: page src/page.md, block 'fresh', snippet src/page.md (inline), golden " in said
    assert "my-goldens/page/fresh.txt" in said
    assert "::error file=src/page.md,line=3,title=block 'good' drifted (text)::" in said
    assert "::error file=src/page.md,line=7,title=block 'boom' failed" in said
    written = summary.read_text()
    assert "`src/page.md:3`" in written and "git diff my-goldens" in written, written
    assert not _THIS_REPOSITORY.search(said + written), said + written


def test_the_serve_log_names_the_book_s_docs_dir(tmp_path):
    goldens = tmp_path / "my-goldens"
    new = compare(goldens, "page.md", "b", "src/page.md (inline)", "1\n", docs="src")
    assert serve_message(new, tmp_path).startswith("src/page.md#b: no golden yet; run GOLDEN=")
    golden = goldens / "page" / "b.txt"
    golden.parent.mkdir(parents=True)
    golden.write_text(new.actual)
    drifted = compare(goldens, "page.md", "b", "src/page.md (inline)", "2\n", docs="src")
    said = serve_message(drifted, tmp_path)
    assert said.startswith("src/page.md#b drifted from its golden:\n"), said
    assert "+++ src/page.md#b (this build)" in said
