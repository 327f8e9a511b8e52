"""A failing block's traceback names the snippet file's lines, its hidden ones counted, on every
Python the engine runs on: a frame of Python 3.10 has no end line nor columns, which the worker's
renumbering (`Numbering.as_in_file`) must not ask for."""

from __future__ import annotations

import pytest
from test_execution import run_page

from bookexec._internal.execute.runtime import PythonRuntime

pytestmark = pytest.mark.engine

CODE = """\
# hidden: begin
import math
# hidden: end
def half(x):
    raise ValueError(f"no half of {x:.2f}")


half(math.pi)
"""


def test_a_traceback_names_the_file_s_lines_past_the_hidden_ones(tmp_path):
    (run,) = run_page(tmp_path, CODE, runtime=PythonRuntime()).blocks
    assert run.failure is not None
    assert "worker died" not in run.failure, run.failure
    assert "), line 5: raised builtins.ValueError" in run.failure, run.failure
    assert '  File "snippets/page/block0.py", line 8, in <module>\n    half(math.pi)\n' in (
        run.failure
    )
    assert '  File "snippets/page/block0.py", line 5, in half\n' in run.failure, run.failure
    assert run.failure.endswith("ValueError: no half of 3.14"), run.failure
