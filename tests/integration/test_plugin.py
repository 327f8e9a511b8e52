"""The plugin's options, as a book's `mkdocs.yml` sets them, through a real `mkdocs build`.

A wrong value is MkDocs' configuration error naming the option; a right one reaches the
build; an environment variable overrides its option, and a bad one is named when the build
starts. The books here use the plain Python runtime: their workers start in a blink.
"""

from __future__ import annotations

import textwrap

import pytest

from conftest import Site

pytestmark = pytest.mark.build

CONFIG = """\
site_name: options
plugins:
  - markdown-exec:
      languages: []
  - executed-book:
      runtime: bookexec._internal.execute.runtime.PythonRuntime
      goldens: tests/golden
      snippets: page-folders
      fences: engine
{options}
markdown_extensions:
  - pymdownx.superfences
  - pymdownx.snippets:
      base_path: !relative $config_dir
      check_paths: true
"""

PAGE = '# Nap\n\n```python exec="on" id="nap"\n--8<-- "snippets/index/nap.py"\n```\n'


def book(root, options: str = "", nap: float = 0.0) -> Site:
    """A book of one block that sleeps `nap` seconds, with these plugin options (YAML)."""
    site = Site(root)
    root.mkdir(parents=True)
    indented = textwrap.indent(textwrap.dedent(options).strip("\n"), " " * 6)
    (root / "mkdocs.yml").write_text(CONFIG.format(options=indented))
    site.page("index.md", PAGE)
    site.snippet("index/nap.py", f"import time\ntime.sleep({nap})\nprint('awake')\n")
    return site


BAD = {
    "cache": ("cache: sometimes", "option 'cache': expected one of auto, on, off; got 'sometimes'"),
    "jobs": ("jobs: -1", "option 'jobs': expected a whole number of pages at once"),
    "slow": ("slow: soon", "option 'slow': expected a number of seconds, more than 0"),
    "timeout": (
        "limits:\n  timeout: 0",
        "option 'limits': Sub-option 'timeout': expected a number of seconds, more than 0",
    ),
    "memory": (
        "limits:\n  memory: lots",
        "option 'limits': Sub-option 'memory': expected a size such as 8G or 512M, got 'lots'",
    ),
    "background": ("serve:\n  background: maybe", "option 'serve': Sub-option 'background'"),
    "unknown runtime": (
        "runtime: bookexec._internal.execute.runtime.NoSuchRuntime",
        "option 'runtime': cannot import bookexec._internal.execute.runtime.NoSuchRuntime",
    ),
    "runtime of the wrong kind": (
        "runtime: jaxbook.extensions.Census",
        "option 'runtime': jaxbook.extensions.Census is not a bookexec.Runtime",
    ),
    "extension of the wrong kind": (
        "extensions: [bookexec._internal.execute.runtime.PythonRuntime]",
        "option 'extensions': bookexec._internal.execute.runtime.PythonRuntime is not a "
        "bookexec.Extension",
    ),
}


@pytest.mark.parametrize("case", list(BAD))
def test_a_wrong_option_is_a_configuration_error_naming_it(tmp_path, case):
    options, says = BAD[case]
    if case.startswith("runtime"):  # replaces the plain runtime the book names
        config = CONFIG.replace(
            "      runtime: bookexec._internal.execute.runtime.PythonRuntime\n", ""
        )
    else:
        config = CONFIG
    site = book(tmp_path / "book", options)
    indented = textwrap.indent(options, " " * 6)
    (site.root / "mkdocs.yml").write_text(config.format(options=indented))
    built = site.build("update", timeout=120)
    assert built.returncode != 0, built.output
    assert "Aborted with a configuration error!" in built.output, built.output
    assert f"Config value 'plugins': Plugin 'executed-book' {says}" in built.output, built.output
    assert not (site.root / "tests" / "golden").exists()  # nothing ran


def test_the_options_reach_the_build_and_the_environment_overrides_them(tmp_path):
    site = book(tmp_path / "book", "cache: on\nlimits:\n  timeout: 0.5\nslow: 0.1", nap=6)
    killed = site.build("update", timeout=120)  # killed 5 s past its limit (the worker's grace)
    assert killed.returncode != 0, killed.output
    assert "timed out after 0.5 s" in killed.output, killed.output
    assert "(default 0.5 s: the plugin's limits: timeout, or BOOK_BLOCK_TIMEOUT)" in killed.output

    # The environment wins over mkdocs.yml: a longer limit. The update stores what it ran.
    update = site.build("update", BOOK_BLOCK_TIMEOUT="30", timeout=120)
    assert update.returncode == 0, update.output
    assert site.goldens()["index/nap.txt"].endswith("---\nawake\n")
    check = site.build("check", BOOK_BLOCK_TIMEOUT="30", timeout=120)
    assert check.returncode == 0, check.output
    assert "pages at a time, the block cache (GOLDEN=check)" in check.output, check.output
    assert "0 blocks executed, 1 from cache" in check.output  # cache: on reads the update's run
    # ... and no cache though mkdocs.yml says on: the block runs, and is slow (slow: 0.1).
    uncached = site.build("check", BOOK_BLOCK_TIMEOUT="30", BOOK_CACHE="off", timeout=120)
    assert uncached.returncode == 0, uncached.output
    assert "pages at a time, no cache (GOLDEN=check)" in uncached.output, uncached.output
    assert "slow block docs/index.md:3 (block 'nap'" in uncached.output


@pytest.mark.parametrize(
    ("name", "value", "says"),
    [
        ("BOOK_JOBS", "many", "BOOK_JOBS='many' is not a whole number of pages"),
        ("BOOK_SLOW", "-1", "BOOK_SLOW='-1' is not a number of seconds"),
        ("BOOK_CACHE", "sometimes", 'BOOK_CACHE: "sometimes" is not a yes or no'),
        ("GOLDEN", "upgrade", "GOLDEN='upgrade' is not a mode"),
    ],
)
def test_a_bad_variable_is_named_when_the_build_starts(tmp_path, name, value, says):
    site = book(tmp_path / "book")
    built = site.build("check", timeout=120, **{name: value})
    assert built.returncode != 0, built.output
    assert says in built.output, built.output
    assert "Traceback" not in built.output
