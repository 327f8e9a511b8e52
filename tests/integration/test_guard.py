"""A build that does not go through the book's engine stops and says which command to use.

Another builder that reads mkdocs.yml (Zensical, or MkDocs without the book's plugin) would show
the blocks unrun, or run every block in-process through markdown-exec's own formatter, and
compare no golden. The book's `bookexec.guard` extension stops it (only the engine's plugin sets
its option); `bookexec.facts` refuses too, as a second line.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import markdown
import markdown_exec
import pytest

from bookexec.facts import IN_BUILDER
from bookexec.guard import MESSAGE
from conftest import PLUGIN, REPO

ZENSICAL = "0.1.1"
INLINE = '# Page\n\n```python exec="on"\nprint(1 + 1)\n```\n'
PAGE = '# Page\n\n```python exec="on" id="two"\n--8<-- "snippets/index/two.py"\n```\n'

# Without the plugin: the book's own mkdocs.yml, its markdown extensions and markdown-exec's
# plugin, but not the plugin registering the engine's fences; with IN_PROCESS, also
# markdown-exec's own
# python fence, as a builder configuring markdown-exec by hand (Zensical's way) would add it.
WITHOUT_HOOK = """
import sys
import markdown
import markdown_exec
from mkdocs.config import load_config

config = load_config(sys.argv[1])
config.plugins["markdown-exec"].on_config(config)
if sys.argv[3:] == ["IN_PROCESS"]:
    fence = {"name": "python", "class": "python"}
    fence |= {"validator": markdown_exec.validator, "format": markdown_exec.formatter}
    config.mdx_configs["pymdownx.superfences"]["custom_fences"].append(fence)
md = markdown.Markdown(extensions=config.markdown_extensions, extension_configs=config.mdx_configs)
print(md.convert(sys.argv[2]))
"""


def run_python(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run(
        [sys.executable, *args], cwd=REPO, env=env, capture_output=True, text=True, timeout=300
    )


@pytest.mark.parametrize("fence", ["none", "IN_PROCESS"])
def test_markdown_exec_without_the_plugin_stops_with_the_command_to_use(fence):
    """The book's markdown extensions, markdown-exec's plugin (and its own python fence, or
    none), no plugin: the conversion stops."""
    done = run_python("-c", WITHOUT_HOOK, str(REPO / "mkdocs.yml"), INLINE, fence)
    assert done.returncode != 0, done.stdout
    assert MESSAGE in done.stderr
    assert done.stdout == ""  # the block never ran, and no page was made


def with_guard(config: Path, hook: bool = True) -> None:
    text = config.read_text() + "  - bookexec.guard\n"  # markdown_extensions is the last list
    if not hook:
        text = text.replace(PLUGIN, "")
    config.write_text(text)


@pytest.mark.build
def test_a_build_through_the_plugin_passes_the_guard(site):
    site.page("index.md", PAGE)
    site.snippet("index/two.py", "print(1 + 1)\n")
    with_guard(site.root / "mkdocs.yml")
    built = site.build("update")
    assert built.returncode == 0, built.output
    assert site.goldens()["index/two.txt"].endswith("---\n2\n")


@pytest.mark.build
def test_mkdocs_without_the_plugin_fails_the_build(site):
    site.page("index.md", PAGE)
    site.snippet("index/two.py", "print(1 + 1)\n")
    with_guard(site.root / "mkdocs.yml", hook=False)
    assert "executed-book" not in (site.root / "mkdocs.yml").read_text()
    built = site.build("check")
    assert built.returncode != 0
    assert MESSAGE in built.output
    assert not (site.root / "site" / "index.html").exists()


def test_facts_refuse_a_block_markdown_exec_runs_in_process():
    """The second line: without the guard, a snippet that records a value stops the build."""
    fence = {"name": "python", "class": "python"}
    fence |= {"validator": markdown_exec.validator, "format": markdown_exec.formatter}
    md = markdown.Markdown(
        extensions=["pymdownx.superfences"],
        extension_configs={"pymdownx.superfences": {"custom_fences": [fence]}},
    )
    code = "from bookexec.facts import record\nrecord('n', 3)\nprint('recorded')"
    with pytest.raises(SystemExit) as stopped:
        md.convert(f'```python exec="on"\n{code}\n```\n')
    assert stopped.value.code == IN_BUILDER


def test_facts_still_work_outside_any_builder():
    """A reader's Jupyter kernel, or a plain script, records values as before."""
    done = run_python("-c", "from bookexec.facts import record; print(record('n', 3))")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "3\n"


@pytest.fixture(scope="module")
def zensical(tmp_path_factory) -> Path:
    """zensical in a throwaway venv under .cache; the book's packages come from this venv."""
    venv = REPO / ".cache" / f"zensical-{ZENSICAL}"
    exe = venv / "bin" / "zensical"
    if not exe.exists():
        base = getattr(sys, "_base_executable", sys.executable)
        subprocess.run([base, "-m", "venv", "--clear", str(venv)], check=True, timeout=300)
        pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet"]
        done = subprocess.run(
            [*pip, "--disable-pip-version-check", f"zensical=={ZENSICAL}"],
            capture_output=True,
            text=True,
            timeout=600,
        )
        if done.returncode != 0:
            reason = [line for line in done.stderr.splitlines() if line.startswith("ERROR")]
            pytest.skip(f"zensical {ZENSICAL} cannot be installed here: {' '.join(reason)}")
    # markdown-exec, bookexec and JAX from the book's venv, after zensical's own packages.
    site_packages = next((venv / "lib").glob("python*/site-packages"))
    ours = [p for p in sys.path if p.endswith("site-packages")] + [str(REPO / "hooks")]
    (site_packages / "book.pth").write_text("\n".join(ours) + "\n")
    return exe


@pytest.mark.build
def test_zensical_build_fails_with_the_command_to_use(zensical):
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run(
        [str(zensical), "build", "--config-file", str(REPO / "mkdocs.yml")],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    said = done.stdout + done.stderr
    assert done.returncode != 0, said
    assert MESSAGE in said or IN_BUILDER in said, textwrap.shorten(said, 2000)


def test_the_scan_executes_exactly_the_fences_the_guard_registers():
    """One list of executed languages: a fence the engine registers but the scan skips would
    render with no block behind it, and one the scan finds but superfences never hands the
    engine would be judged and never shown."""
    from types import SimpleNamespace

    from bookexec._internal.discover.blocks import is_executed
    from bookexec.guard import engine_formatter, register

    config = SimpleNamespace(
        markdown_extensions=["pymdownx.superfences"], mdx_configs={}, plugins={}
    )
    register(config, engine_formatter(lambda *args, **kwargs: ""))
    fences = config.mdx_configs["pymdownx.superfences"]["custom_fences"]
    registered = {fence["name"] for fence in fences}
    assert registered >= {"python", "py"}
    candidates = registered | {"pycon", "python3", "bash", "text", "PY"}
    executed = {lang for lang in candidates if is_executed(lang, {"exec": "on"})}
    assert executed == registered
