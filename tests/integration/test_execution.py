"""The worker and the judge: what a block shows, what it raises, and when it must stop the build."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bookexec._internal import settings
from bookexec._internal.discover.blocks import Block
from bookexec._internal.errors import BookError
from bookexec._internal.execute.model import Note, PageRun
from bookexec._internal.execute.runner import Executor, ExecutorOptions
from bookexec._internal.execute.runtime import PythonRuntime, Runtime
from bookexec._internal.execute.watch import CheckoutWatch
from bookexec._internal.goldens.report import Failure
from bookexec._internal.jax.jax_runtime import JaxRuntime
from conftest import REPO, scaled


def fixture_watch(root: Path) -> CheckoutWatch:
    """The read-only watch of a fixture book laid out as the JAX book is."""
    return CheckoutWatch(root, ("docs", "snippets", "tests/golden"), ("mkdocs.yml",))


def run_page(
    root: Path, *codes: str, runtime: Runtime | None = None, notes: list | None = None, **options
) -> PageRun:
    """Run snippets as the blocks of one page, in one real worker, and return what happened;
    what went wrong outside any block goes into `notes`."""
    blocks = []
    for index, code in enumerate(codes):
        snippet = f"snippets/page/block{index}.py"
        (root / snippet).parent.mkdir(parents=True, exist_ok=True)
        (root / snippet).write_text(code)
        blocks.append(
            Block("page.md", index, 10 * index + 1, f"b{index}", snippet, code, dict(options))
        )
    options = ExecutorOptions(environ=os.environ, jobs=1, watch=fixture_watch(root))
    executor = Executor(root, options, runtime or JaxRuntime())
    executor.submit("page.md", blocks)
    try:
        return executor.page("page.md")
    finally:
        executor.close()
        if notes is not None:
            notes += executor.notes


def test_capture_keeps_print_streams_debug_print_and_warnings_in_order(tmp_path):
    code = """\
import sys
import warnings
import jax
import jax.numpy as jnp

print("one: print")
sys.stdout.write("two: sys.stdout\\n")
sys.stderr.write("three: sys.stderr\\n")

@jax.jit
def f(x):
    jax.debug.print("four: debug.print x={x}", x=x)
    return x + 1

f(jnp.float32(41.0)).block_until_ready()
warnings.warn("five: a warning")
print("six: print again")
"""
    (run,) = run_page(tmp_path, code).blocks
    assert run.failure is None
    lines = [line for line in run.output.splitlines() if line.strip()]
    markers = [line.split(":")[0] for line in lines if not line.startswith("  ")]
    assert markers[:3] == ["one", "two", "three"]
    assert lines[3] == "four: debug.print x=41.0"
    assert "UserWarning: five: a warning" in lines[4]
    assert lines[-1] == "six: print again"


def test_debug_print_from_an_unawaited_call_still_lands_in_its_block(tmp_path):
    code = """\
import jax

jax.jit(lambda x: jax.debug.print("seen {}", x))(3)
"""
    (run,) = run_page(tmp_path, code).blocks
    assert run.output == "seen 3\n"


def test_blocks_of_a_page_share_one_session(tmp_path):
    page = run_page(tmp_path, "answer = 6 * 7\n", "print(answer)\n")
    assert [run.output for run in page.blocks] == ["", "42\n"]


def test_each_page_starts_fresh(tmp_path):
    first = run_page(tmp_path, "import sys\nsys.modules['marker'] = 1\nprint(__name__)\n")
    second = run_page(tmp_path, "import sys\nprint('marker' in sys.modules)\n")
    assert first.blocks[0].output == "__main__\n"
    assert second.blocks[0].output == "False\n"


def test_a_block_and_its_subprocesses_read_mkdocs_config_dir_as_under_markdown_exec(tmp_path):
    # markdown-exec's plugin sets MKDOCS_CONFIG_DIR to the folder of mkdocs.yml for the code
    # it runs (its docs' blocks open files relative to it); the engine's workers get the same.
    code = """\
import os
import subprocess
import sys

print(os.environ.get("MKDOCS_CONFIG_DIR"))
child = "import os; print(os.environ.get('MKDOCS_CONFIG_DIR'))"
subprocess.run([sys.executable, "-c", child], check=True)
"""
    (run,) = run_page(tmp_path, code, runtime=PythonRuntime()).blocks
    assert run.failure is None, run.failure
    assert run.output.splitlines() == [str(tmp_path)] * 2, run.output


def test_declared_exception_shows_type_and_message_only(tmp_path):
    code = """\
import jax

@jax.jit
def sign(x):
    if x > 0:
        return 1.0
    return -1.0

print("before")
sign(2.0)
"""
    (run,) = run_page(tmp_path, code, raises="TracerBoolConversionError").blocks
    assert run.failure is None
    assert run.output.startswith("before\njax.errors.TracerBoolConversionError: ")
    assert "snippets/page/block0.py" in run.output  # JAX names the traced function's file
    assert "Traceback" not in run.output
    assert "removed its internal frames" not in run.output
    assert str(tmp_path) not in run.output


def test_declared_exception_that_is_not_raised_fails(tmp_path):
    (run,) = run_page(tmp_path, "x = 1\n", raises="ZeroDivisionError").blocks
    assert run.failure is not None
    assert 'declared raises="ZeroDivisionError" but nothing was raised' in run.failure
    assert "block 'b0'" in run.failure


def test_a_different_exception_than_declared_fails(tmp_path):
    code = "x = 1\n\n\nx / 0\n"
    (run,) = run_page(tmp_path, code, raises="KeyError").blocks
    assert run.failure is not None
    assert "raised builtins.ZeroDivisionError" in run.failure
    assert 'declared raises="KeyError"' in run.failure
    assert "snippets/page/block0.py, line 4" in run.failure.replace(")", "")


def test_undeclared_exception_names_page_block_snippet_and_line(tmp_path):
    page = run_page(
        tmp_path, "ok = True\n", "values = {}\n\nvalues['missing']\n", "print('never')\n"
    )
    first, second, third = page.blocks
    assert first.failure is None
    assert second.failure is not None
    head = second.failure.splitlines()[0]
    assert head.startswith("docs/page.md:11 (block 'b1', snippet snippets/page/block1.py), line 3")
    assert "KeyError" in head
    # the page runs to its end, in the same session, and the later block knows what failed first
    assert third.failure is None and third.output == "never\n" and third.after is None
    assert second.after is None


def test_sys_exit_is_reported_not_fatal(tmp_path):
    (run,) = run_page(tmp_path, "import sys\nsys.exit(3)\n").blocks
    assert run.failure is not None and "SystemExit" in run.failure


def test_hanging_block_is_killed_in_bounded_time_and_names_its_line(tmp_path):
    code = "import time\n\nwhile True:\n    time.sleep(0.1)\n"
    start = time.monotonic()
    (run,) = run_page(tmp_path, code, timeout="2").blocks
    elapsed = time.monotonic() - start
    assert run.failure is not None
    assert "timed out after 2 s" in run.failure
    assert "it was running snippets/page/block0.py line 4" in run.failure
    assert elapsed < scaled(30)


def test_a_block_past_its_timeout_fails_even_when_it_ends_before_it_is_killed(tmp_path):
    """Issue 53: `timeout="1"` let a block of 5.5 s pass: the build waited 5 s more before it
    killed the worker, and judged by that alone. The limit is the timeout: a block that ran
    past it fails by its own clock; one well within it passes."""
    late, prompt = "import time\ntime.sleep(1.6)\nprint('late')\n", "print('prompt')\n"
    (run,) = run_page(tmp_path, late, runtime=PythonRuntime(), timeout="1").blocks
    assert run.failure is not None and "past its timeout of 1 s" in run.failure, run.failure
    assert 'raise timeout="..."' in run.failure
    (run,) = run_page(tmp_path, prompt, runtime=PythonRuntime(), timeout="1").blocks
    assert run.failure is None and run.output == "prompt\n"


def test_flooding_block_is_stopped(tmp_path):
    code = "while True:\n    print('x' * 1000)\n"
    # No clock: a block that was not stopped would time out, and say so instead.
    (run,) = run_page(tmp_path, code, limit="5000").blocks
    assert run.failure is not None and "output flooded past 5000 characters" in run.failure


def test_flood_cannot_be_swallowed_by_except_exception(tmp_path):
    code = "while True:\n    try:\n        print('y' * 100)\n    except Exception:\n        pass\n"
    (run,) = run_page(tmp_path, code, limit="1000", timeout="20").blocks
    assert run.failure is not None and "flooded" in run.failure


@pytest.mark.parametrize("fd", [1, 2])
def test_writes_to_real_file_descriptors_are_output_and_the_protocol_survives(tmp_path, fd):
    """Issue 53: what a block writes below Python's `sys.stdout` is what a reader's terminal
    shows: it is the block's output, in its place, and the worker's own pipe is untouched."""
    code = f"import os\nos.write({fd}, b'below python\\n')\nprint('ok')\n"
    (run,) = run_page(tmp_path, code).blocks
    assert run.failure is None and run.output == "below python\nok\n"


def test_a_subprocess_and_a_c_library_write_the_output_in_order(tmp_path):
    """Issue 53: a child process's output and a C function's were neither captured nor
    bounded (the worker log alone got them): they are output, in order with the prints."""
    code = (
        "import ctypes, os, subprocess, sys\n"
        "print('one, from print')\n"
        "subprocess.run([sys.executable, '-c', 'print(\"two, from a child\")'], check=True)\n"
        "ctypes.CDLL(None).write(2, b'three, from C\\n', 14)\n"
        "print('four, from print')\n"
    )
    (run,) = run_page(tmp_path, code, runtime=PythonRuntime()).blocks
    assert run.failure is None, run.failure
    assert run.output == "one, from print\ntwo, from a child\nthree, from C\nfour, from print\n"


@pytest.mark.parametrize(
    "code",
    [
        pytest.param("import os\nos.write(1, b'z' * 100_000)\n", id="fd-write"),
        pytest.param(
            "import subprocess\nsubprocess.run(['head', '-c', '100000', '/dev/zero'])\n",
            id="subprocess",
        ),
        pytest.param("raise ValueError('y' * 100_000)\n", id="exception-message"),
        pytest.param(
            "try:\n    raise KeyError('k' * 100_000)\n"
            "except KeyError:\n    raise ValueError('small')\n",
            id="chained-traceback",
        ),
        pytest.param(
            "from bookexec.facts import record\nrecord('big', 'x' * 100_000)\n", id="fact"
        ),
        pytest.param(
            "from bookexec.facts import claim, record\nrecord('n', 1)\n"
            "claim('n', '>', 0, says='s' * 100_000)\n",
            id="claim-words",
        ),
    ],
)
def test_everything_a_block_produces_is_bounded_by_its_limit(tmp_path, code):
    """Issue 53: the limit covered stdout only: an exception's message, a recorded fact, a
    subprocess's output reached the report, the page and the golden whole."""
    (run,) = run_page(tmp_path, code, runtime=PythonRuntime(), limit="1000").blocks
    assert run.failure is not None and "output flooded past 1000 characters" in run.failure
    assert len(run.failure) < 2000 and len(run.output) <= 1000, run.failure[:300]
    assert run.facts == [] and run.claims == []


def test_a_declared_exception_of_100_mb_floods_and_is_not_shown(tmp_path):
    """The issue's case: 100 MB in the terminal report and in the page, now the flood message."""
    code = "raise ValueError('y' * 100_000_000)\n"
    (run,) = run_page(tmp_path, code, runtime=PythonRuntime(), raises="ValueError").blocks
    assert run.failure is not None and "output flooded past 200000 characters" in run.failure
    assert len(run.failure) < 2000 and run.output == ""


class _Unstartable(PythonRuntime):
    preload = ("no_such_module_for_this_test",)


def test_a_worker_that_cannot_start_is_the_pages_failure_not_its_first_blocks(tmp_path):
    notes: list[Note] = []
    first_code = "import no_such_module_for_this_test\nprint(1)\n"  # the page names it
    page = run_page(tmp_path, first_code, "print(2)\n", runtime=_Unstartable(), notes=notes)
    # the cause is said once, for the page, and the report shows it as the page's
    (note,) = notes
    assert note.page == "page.md"  # the page's, as a value: nothing parses it back
    message = note.message
    assert message.startswith("docs/page.md: the page's worker could not start: worker died")
    assert "ModuleNotFoundError: No module named 'no_such_module_for_this_test'" in message
    assert Failure("page.md", "", "", message).line() == f"FAILED: {message}"
    # no block is blamed for it: each says it was not run, the first like the others
    first, second = page.blocks
    for run in (first, second):
        assert run.failure == (
            f"{run.block.where}: not run: the page's worker could not start (its failure says why)"
        )
        assert run.after is None


@pytest.mark.parametrize(
    ("name", "value"), [("BOOK_BLOCK_TIMEOUT", "soon"), ("BOOK_OUTPUT_LIMIT", "-5")]
)
def test_a_bad_limit_in_the_environment_is_named_when_the_build_starts(
    tmp_path, monkeypatch, name, value
):
    env = {**os.environ, name: value}
    imported = subprocess.run(
        [
            sys.executable,
            "-c",
            "import bookexec._internal.execute.runner, bookexec._internal.settings,"
            " bookexec._internal.plugin",
        ],
        cwd=REPO / "hooks",
        env=env,
        capture_output=True,
        text=True,
    )
    assert imported.returncode == 0, imported.stderr  # importing never reads it
    with pytest.raises(BookError) as raised:
        settings.read({}, {name: value})  # what the plugin does as each build starts
    assert str(raised.value).startswith(f"{name}={value!r} is not a positive number of ")


def test_the_serve_executor_keeps_one_fresh_worker_started_ahead(tmp_path):
    """Under serve the next page run takes a worker started (and preloaded) before it was
    asked for; that worker has run nothing, so a page never sees another page's session, and
    none is left running once the executor stops."""
    executor = Executor(tmp_path, ExecutorOptions(environ=os.environ, jobs=1), PythonRuntime())

    def ready_spare(other_than: int | None = None) -> int:
        deadline = time.monotonic() + scaled(60)
        while time.monotonic() < deadline:
            pid = executor.spare_pid()
            if pid is not None and pid != other_than:
                return pid
            time.sleep(0.05)
        raise AssertionError("no spare worker was started")

    def page(name: str, code: str) -> str:
        snippet = tmp_path / "snippets" / name / "block.py"
        snippet.parent.mkdir(parents=True, exist_ok=True)
        snippet.write_text(code)
        block = Block(f"{name}.md", 0, 1, "b", f"snippets/{name}/block.py", code, {})
        executor.submit(f"{name}.md", [block])
        run = executor.page(f"{name}.md").blocks[0]
        assert run.failure is None, run.failure
        return run.output

    started = []
    try:
        executor.keep_spare()
        first = ready_spare()
        started.append(first)
        assert page("one", "import os\nMARK = 1\nprint(os.getpid())\n") == f"{first}\n"
        second = ready_spare(other_than=first)  # the next one, started as the first was taken
        started.append(second)
        shown = page("two", "import os\nprint(os.getpid(), 'MARK' in globals())\n")
        assert shown == f"{second} False\n"
        started.append(ready_spare(other_than=second))
    finally:
        executor.stop()
        executor.close()
    deadline = time.monotonic() + scaled(10)
    while any(Path(f"/proc/{pid}").exists() for pid in started) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [pid for pid in started if Path(f"/proc/{pid}").exists()]


def test_a_worker_preloads_only_the_runtime_modules_its_page_names(tmp_path):
    """JAX's import is about a second of CPU: a page of plain Python in the JAX book does not
    pay it, and a page that names JAX finds it loaded before its first block."""
    # "j" "ax": the name spelled so that the page does not name it.
    loaded = "import sys\nprint(sorted(m for m in sys.modules if m == 'j' 'ax'))\n"
    plain = run_page(tmp_path / "plain", loaded)
    assert plain.blocks[0].output == "[]\n" and plain.backend == "none"
    named = run_page(tmp_path / "named", "import jax  # named: preloaded\n", loaded)
    assert named.blocks[1].output == "['jax']\n" and named.backend == "cpu"
    rules = JaxRuntime()
    assert rules.preload_for(["from jax import lax"]) == ("jax",)
    assert rules.preload_for(["import flax", "jax_like = 1", "x.jax = 2"]) == ()
