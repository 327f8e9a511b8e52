"""A chapter notebook's fresh cells run in a new interpreter, in a kernel that has run nothing
but the notebook (issue 53, point 2).

A `fresh="true"` block becomes a cell starting with `%%script {sys.executable}`. IPython fills
`{sys.executable}` from the kernel's names: a notebook that never imports `sys` gets
"Couldn't find program: '{sys.executable}'" printed, no error, and the cell runs nothing. The
suite's notebook test did not see it, because the cell it put first to hide the engine from the
kernel imported `sys` itself. Here the notebook runs as a reader's kernel runs it, and each
cell must print what its block's golden holds.
"""

from __future__ import annotations

import nbformat
import pytest
from nbclient import NotebookClient

from bookexec._internal.goldens.store import parse as parse_golden

pytestmark = pytest.mark.build

PAGE = """\
# Fresh

```python exec="on" id="warm"
--8<-- "snippets/fresh/warm.py"
```

```python exec="on" id="alone" fresh="true"
--8<-- "snippets/fresh/alone.py"
```
"""

WARM = 'import json\n\nprint("json here:", "json" in dir())\n'
ALONE = 'import sys\n\nprint("a new interpreter; json loaded:", "json" in sys.modules)\n'


def magic_did_nothing(cell) -> str | None:
    """What a cell magic printed instead of running its cell, if it did."""
    for output in cell.outputs:
        text = output.get("text", "")
        if "Couldn't find program" in text or "UsageError" in output.get("ename", ""):
            return text or output.get("evalue", "")
    return None


def test_a_fresh_cell_runs_in_a_new_interpreter_and_prints_its_golden(site, tmp_path):
    site.page("fresh.md", PAGE)
    site.snippet("fresh/warm.py", WARM)
    site.snippet("fresh/alone.py", ALONE)
    written = site.build("update")
    assert written.returncode == 0, written.output
    nb = nbformat.read(site.root / "site" / "fresh" / "fresh.ipynb", as_version=4)
    NotebookClient(
        nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    ).execute()
    checked = []
    for cell in nb.cells:
        meta = cell.metadata.get("executed-book", {})
        if "block" not in meta:
            continue
        assert magic_did_nothing(cell) is None, f"{meta['block']}: {magic_did_nothing(cell)}"
        printed = "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")
        golden = parse_golden((site.root / meta["golden"]).read_text(encoding="utf-8"))
        assert printed == golden.output, f"cell '{meta['block']}' printed {printed!r}"
        checked.append(meta["block"])
    assert checked == ["warm", "alone"]
    assert "json loaded: False" in (site.root / "tests/golden/fresh/alone.txt").read_text()
