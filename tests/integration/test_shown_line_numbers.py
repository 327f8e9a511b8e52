"""Hidden lines above shown code do not move the line numbers a block prints (issue 36).

A reader runs the shown code, hidden lines left out; every line number it prints (a frame's
line, a warning's, a traceback's, the line JAX names in a tracer error or a saved residual)
must be the one the page prints. The engine's own messages for the author still name the
snippet file's lines, where the author edits.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from test_execution import run_page

from bookexec._internal.discover.hidden import shown

pytestmark = pytest.mark.build

SNIPPET = """\
from bookexec.facts import record  # hidden
# hidden: begin
import math

unused = math.pi
# hidden: end

import inspect
import sys
import traceback
import warnings

import jax
import jax.numpy as jnp
from jax.ad_checkpoint import print_saved_residuals


def kink(x):
    record("traced", 1)  # hidden
    if x > 0:
        return x
    return -x


def layer(x):
    # hidden: begin
    record("layer", 1)
    # hidden: end
    return jnp.sin(jnp.sin(x))


def divide(a, b):
    return a / b


print("this line is", inspect.currentframe().f_lineno)
warnings.warn("a warning names its line")
try:
    jax.jit(kink)(jnp.float32(1.0))
except jax.errors.TracerBoolConversionError as error:
    print(str(error).split(". ")[0])
print_saved_residuals(layer, 1.0)
try:
    divide(1, 0)
except ZeroDivisionError:
    traceback.print_exc(file=sys.stdout)
record("end", 1)  # hidden
"""


def plain_python(root: Path, snippet: str, code: str) -> str:
    """What `python <snippet>` prints for `code`, both streams in one, with the path as the
    engine compiles it (relative to the book) where Python makes `__main__`'s absolute."""
    path = root / "plain" / snippet
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(code)
    done = subprocess.run(
        [sys.executable, snippet],
        cwd=root / "plain",
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    return done.stdout.replace(f"{root / 'plain'}/", "")


@pytest.mark.parametrize("fresh", ["false", "true"])
def test_a_block_prints_the_line_numbers_its_shown_code_prints_run_plainly(tmp_path, fresh):
    (run,) = run_page(tmp_path, SNIPPET, fresh=fresh).blocks
    assert run.failure is None
    plain = plain_python(tmp_path, "snippets/page/block0.py", shown(SNIPPET))
    assert "this line is 25\n" in plain
    assert "block0.py:26: UserWarning" in plain and "line 33, in <module>" in plain
    assert run.output == plain


RAISES = """\
import jax
import jax.numpy as jnp
# hidden: begin
from bookexec.facts import record

record("before", 1)
# hidden: end


@jax.jit
def kink(x):
    if x > 0:
        return x
    return -x


kink(jnp.float32(1.0))
"""


def test_a_declared_error_names_the_shown_line_and_an_undeclared_one_the_files(tmp_path):
    plain = plain_python(tmp_path, "snippets/page/block0.py", shown(RAISES))
    named = "tracing the function kink at snippets/page/block0.py:5 for jit"
    assert named in plain
    (declared,) = run_page(tmp_path, RAISES, raises="TracerBoolConversionError").blocks
    assert declared.failure is None and named in declared.output
    (failed,) = run_page(tmp_path, RAISES).blocks
    # The author's message names the file: the line, and the traceback's frame and text.
    assert failed.failure is not None
    assert ", line 12: raised jax.errors.TracerBoolConversionError" in failed.failure
    assert 'File "snippets/page/block0.py", line 17, in <module>\n    kink(' in failed.failure
    assert 'File "snippets/page/block0.py", line 12, in kink\n    if x > 0:' in failed.failure


HIDDEN_FAILS = """\
import jax

x = jax.numpy.float32(2.0)
# hidden: begin
from bookexec.facts import record

record("ratio", 1 / 0)
# hidden: end
print(x)
"""


def test_a_failure_on_a_hidden_line_names_that_line_of_the_file(tmp_path):
    (failed,) = run_page(tmp_path, HIDDEN_FAILS).blocks
    assert failed.failure is not None
    assert ", line 7: raised builtins.ZeroDivisionError" in failed.failure
    assert 'line 7, in <module>\n    record("ratio", 1 / 0)' in failed.failure


FLOODS = """\
# hidden: begin
from bookexec.facts import record

record("before", 1)
# hidden: end
while True:
    print("more")
"""


def test_a_flood_names_the_files_line(tmp_path):
    (flooded,) = run_page(tmp_path, FLOODS, limit="1000").blocks
    assert flooded.failure is not None
    assert ", line 7: output flooded past 1000 characters" in flooded.failure


HANGS = """\
import time
# hidden: begin
from bookexec.facts import record

record("before", 1)
# hidden: end

while True:
    time.sleep(0.1)
"""


def test_a_block_out_of_time_names_the_files_line(tmp_path):
    (run,) = run_page(tmp_path, HANGS, timeout="2").blocks
    assert run.failure is not None
    assert "it was running snippets/page/block0.py line 9" in run.failure
