"""An error a block prints names the reader's own file and the shown code's lines (issue 52).

A reader who saves a block's shown code as a file (named as the snippet is) and runs it sees
that file's name and the line numbers of the code they copied. The page and the golden show the
same: no `snippets/<chapter>/` folder of the book, and no line counted with the hidden lines
above the raising one.
"""

from __future__ import annotations

import re
from html import unescape

import pytest

from bookexec._internal.discover.hidden import shown

pytestmark = pytest.mark.build

PAGE = """\
# Errors

```python exec="on" id="divide"
--8<-- "snippets/errors/divide.py"
```

```python exec="on" id="kink" raises="TracerBoolConversionError"
--8<-- "snippets/errors/kink.py"
```
"""

DIVIDE = """\
import sys
import traceback
# hidden: begin
from bookexec.facts import record

record("hidden_above", 1)
# hidden: end


def divide(a, b):
    return a / b


try:
    divide(1, 0)
except ZeroDivisionError:
    traceback.print_exc(file=sys.stdout)
"""

KINK = """\
import jax
import jax.numpy as jnp
from bookexec.facts import record  # hidden
record("hidden_above", 2)  # hidden


@jax.jit
def kink(x):
    if x > 0:
        return x
    return -x


kink(jnp.float32(1.0))
"""


def shown_line(code: str, text: str) -> int:
    """The line of `text` in the code as the page shows it (hidden lines left out)."""
    return shown(code).splitlines().index(text) + 1


def test_errors_name_the_readers_file_and_the_shown_lines(site):
    site.page("errors.md", PAGE)
    site.snippet("errors/divide.py", DIVIDE)
    site.snippet("errors/kink.py", KINK)
    written = site.build("update")
    assert written.returncode == 0, written.output
    goldens = site.goldens()
    line = shown_line(DIVIDE, "    return a / b")
    assert line == 6  # the file's line 11: five hidden lines above it
    frame = f'File "divide.py", line {line}, in divide'
    assert frame in goldens["errors/divide.txt"], goldens["errors/divide.txt"]
    line = shown_line(KINK, "@jax.jit")  # JAX names where the traced function starts
    assert line == 5  # the file's line 7: two hidden lines above it
    tracing = f"tracing the function kink at kink.py:{line} for jit"
    assert tracing in goldens["errors/kink.txt"], goldens["errors/kink.txt"]
    html = (site.root / "site" / "errors" / "index.html").read_text()
    text = unescape(re.sub(r"<[^>]+>", "", html))
    assert frame in text and tracing in text
    for name, golden in goldens.items():
        output = golden.split("---\n", 1)[1]
        assert "snippets/" not in output, f"{name} names the book's folder:\n{output}"
    assert "snippets/errors" not in text.split("Errors", 1)[1]
    checked = site.build()
    assert checked.returncode == 0, checked.output
