"""The plugin's `shown_line_length` through a real strict build: a shown line wider than the
code box fails it, naming page, block, snippet and line; hidden lines may be wider."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.build

PAGE = """\
# Width

```python exec="on" id="wide"
--8<-- "snippets/width/wide.py"
```
"""

HIDDEN = "wide = 'a hidden line may run past the box: no reader sees it'  # hidden\n"
WIDE = 'note = "a line wider than the forty characters this box holds"'


def test_a_shown_line_past_the_width_fails_the_strict_build_and_a_hidden_one_does_not(site):
    config = site.root / "mkdocs.yml"
    config.write_text(
        config.read_text().replace(
            "launcher: ./book\n", "launcher: ./book\n      shown_line_length: 40\n"
        )
    )
    site.page("width.md", PAGE)
    site.snippet("width/wide.py", HIDDEN + 'print("fits")\n')
    written = site.build("update")
    assert written.returncode == 0, written.output

    site.snippet("width/wide.py", HIDDEN + f'print("fits")\n{WIDE}\n')
    result = site.build()
    assert result.returncode != 0, result.output
    assert (
        "docs/width.md:3 (block 'wide', snippet snippets/width/wide.py): line 3 has "
        f"{len(WIDE)} characters, more than the 40 a shown line may have" in result.output
    ), result.output[-3000:]
    assert "Traceback" not in result.output
