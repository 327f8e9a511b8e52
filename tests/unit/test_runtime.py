"""The language-runtime seam: plain Python and JAX behind one interface."""

from __future__ import annotations

import subprocess
import sys

import pytest

from bookexec._internal.execute.runtime import PythonRuntime, Runtime
from bookexec._internal.goldens.compare import COSMETIC, STRUCTURAL, TEXT
from bookexec._internal.jax.jax_runtime import JaxRuntime
from conftest import REPO

pytestmark = pytest.mark.engine


def test_python_runtime_preloads_nothing_probes_nothing_and_records_python_only():
    runtime = PythonRuntime()
    assert isinstance(runtime, Runtime) and runtime.name == "python"
    assert runtime.preload == () and runtime.worker_probe() is None and runtime.flush is None
    assert runtime.versions() == {"python": f"{sys.version_info.major}.{sys.version_info.minor}"}


def test_python_runtime_classifies_plain_text():
    runtime = PythonRuntime()
    assert runtime.classify("a 1\n", "a 2\n").kind == TEXT
    assert runtime.classify("a  1\n", "a 1\n\n").kind == COSMETIC
    # a jaxpr is only text to it: a program change is not structural here
    jaxpr = "{ lambda ; a:f32[]. let b:f32[] = sin a in (b,) }\n"
    assert runtime.classify(jaxpr, jaxpr.replace("sin", "cos")).kind == TEXT
    assert runtime.result_language(jaxpr) == "text"


@pytest.mark.needs_book
def test_jax_runtime_reads_jaxprs_as_programs():
    runtime = JaxRuntime()
    old = "{ lambda ; a:f32[]. let b:f32[] = sin a in (b,) }\n"
    assert runtime.classify(old, old.replace("sin", "cos")).kind == STRUCTURAL
    assert runtime.classify(old, old.replace(" a", " x")).kind == COSMETIC
    assert runtime.result_language(old) == "jaxpr"
    assert runtime.result_language("42\n") == "text"
    assert set(runtime.versions()) == {"jax", "jaxlib", "python"}
    assert runtime.preload == ("jax",)


def test_the_jax_probe_runs_in_a_process_that_never_imported_jax():
    code = (
        "from bookexec._internal.jax.probe import probe, flush_effects\n"
        "flush_effects()\n"
        "import sys\nprint(probe(), 'jax' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO / "hooks", capture_output=True, text=True
    )
    assert out.stdout == "{'backend': 'none', 'devices': 0} False\n", out.stderr
