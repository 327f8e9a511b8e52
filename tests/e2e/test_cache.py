"""The author's block cache: each part of the key makes a block run again, and nothing else does.

A small book is built once per module; each test changes one thing, builds with the cache on,
reads the build's summary line to see which blocks ran, then undoes the change and checks
that every block is a cache hit again.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from bookexec._internal.discover.blocks import Block
from bookexec._internal.execute import cache
from bookexec._internal.execute.cache import BlockCache, cache_entry
from bookexec._internal.execute.model import BlockRun
from bookexec._internal.execute.runner import Executor, ExecutorOptions
from bookexec._internal.execute.runtime import PythonRuntime
from bookexec._internal.goldens.measured import Claim, Fact
from conftest import PLUGIN, Site

pytestmark = pytest.mark.build

CONFIG = f"""\
site_name: cache fixture
plugins:
  - markdown-exec:
      languages: []
{PLUGIN}markdown_extensions:
  - pymdownx.superfences
  - pymdownx.snippets:
      base_path: !relative $config_dir
      check_paths: true
"""

SESSION_PAGE = """\
# Session

```python exec="on" id="first"
--8<-- "snippets/session/first.py"
```

```python exec="on" id="second"{options}
--8<-- "snippets/session/second.py"
```

```python exec="on" id="third" fresh="true"
--8<-- "snippets/session/third.py"
```
"""

OTHER_PAGE = '# Other\n\n```python exec="on" id="alone"\n--8<-- "snippets/other/alone.py"\n```\n'

SUMMARY = re.compile(
    r"bookexec summary: (\d+) blocks executed, (\d+) from cache"
    r"(?: \((\d+) cached blocks replayed for their session\))?, (\d+) drifted"
)


class CachedBook(Site):
    warm: frozenset[str] = frozenset()  # the names of the entries the warm build of `book` hits

    def session_page(self, options: str = "") -> None:
        self.page("session.md", SESSION_PAGE.format(options=options))

    def cached_build(self, **env: str):
        return self.build(BOOK_CACHE="on", **env)

    def counts(self, **env: str) -> dict[str, int]:
        """Build with the cache on; how many blocks ran, came from the cache, were replayed."""
        result = self.cached_build(**env)
        assert result.returncode == 0, result.output
        found = SUMMARY.search(result.output)
        assert found, result.output
        executed, cached, replayed, _ = (int(g or 0) for g in found.groups())
        return {"executed": executed, "cached": cached, "replayed": replayed}

    def assert_all_cached(self, **env: str) -> None:
        assert self.counts(**env) == {"executed": 0, "cached": 4, "replayed": 0}

    def entries(self) -> dict[str, bytes]:
        """The cache's stored entries, by file name."""
        folder = self.root / ".cache" / "bookexec" / "blocks"
        return {path.name: path.read_bytes() for path in sorted(folder.glob("*.json"))}

    def assert_entries_kept(self, before: dict[str, bytes]) -> None:
        """The entries of the book as it was written (those its warm build hits, `book`) are
        still stored, byte for byte as before the test: undone, the change leaves every block a
        cache hit, which a warm build proves once
        (`test_a_warm_build_runs_nothing_and_shows_the_same_page`). Entries of other versions
        of a block may have made way for the test's."""
        after = self.entries()
        kept = {name: before[name] for name in self.warm}
        assert {name: after.get(name) for name in self.warm} == kept
        # What the warm build's hits would do: mark the entries recently used, so the next
        # test's entries do not push them out (the cache keeps each block's newest few).
        for name in self.warm:
            (self.root / ".cache" / "bookexec" / "blocks" / name).touch()


def cached_book(root: Path) -> CachedBook:
    """The fixture book: a page of three blocks (the last fresh) and a page of one."""
    (root / "docs").mkdir(parents=True)
    (root / "mkdocs.yml").write_text(CONFIG)
    site = CachedBook(root)
    site.session_page()
    site.page("other.md", OTHER_PAGE)
    site.snippet("session/first.py", "base = 40\nprint('first sets base', base)\n")
    site.snippet("session/second.py", 'print("second sees", base + 2)\n')
    site.snippet("session/third.py", "print('third runs alone:', 'base' in globals())\n")
    site.snippet("other/alone.py", "print('alone')\n")
    return site


@pytest.fixture(scope="module")
def book(tmp_path_factory) -> CachedBook:
    site = cached_book(tmp_path_factory.mktemp("cached") / "book")
    assert site.build("update", BOOK_CACHE="off").returncode == 0  # stores nothing
    assert site.counts() == {"executed": 4, "cached": 0, "replayed": 0}
    site.assert_all_cached()
    site.warm = frozenset(site.entries())
    assert len(site.warm) == 4, site.warm
    return site


def test_an_update_stores_what_it_ran_and_never_reads_the_cache(tmp_path):
    """The update's run is a real one: the check after it runs nothing the update ran. It
    still runs every block itself, and with the cache off it stores nothing."""
    site = cached_book(tmp_path / "book")
    off = site.build("update", BOOK_CACHE="off")
    assert off.returncode == 0 and SUMMARY.search(off.output)[1] == "4"
    assert not (site.root / ".cache" / "bookexec" / "blocks").exists()  # off: nothing stored
    for _ in range(2):  # the second update finds the first's entries, and runs anyway
        update = site.build("update")
        assert update.returncode == 0 and SUMMARY.search(update.output)[1] == "4"
    site.assert_all_cached()


def test_a_warm_build_runs_nothing_and_shows_the_same_page(book):
    page = (book.root / "site" / "session" / "index.html").read_text()
    book.assert_all_cached()
    again = (book.root / "site" / "session" / "index.html").read_text()
    assert "second sees 42" in again and again == page


def test_editing_a_snippet_reruns_it_and_the_rest_of_its_session(book):
    second = book.root / "snippets" / "session" / "second.py"
    original = second.read_text()
    second.write_text(original + "# an edit that changes no output\n")
    # second runs; first is replayed to rebuild the session; third (fresh) and alone are hits
    assert book.counts() == {"executed": 1, "cached": 3, "replayed": 1}
    second.write_text(original)
    book.assert_all_cached()


def test_a_snippet_cannot_include_a_file_the_key_would_miss(book):
    """The key hashes the snippet's text, so a snippet may not pull in other files."""
    second = book.root / "snippets" / "session" / "second.py"
    original = second.read_text()
    before = book.entries()
    book.snippet("session/helper.py", "helped = True\n")
    second.write_text('--8<-- "snippets/session/helper.py"\n' + original)
    try:
        result = book.cached_build()
        assert result.returncode != 0
        assert "includes another file" in result.output
        assert "docs/session.md:7: block 'second': snippets/session/second.py:1" in result.output
    finally:
        second.write_text(original)
        (book.root / "snippets" / "session" / "helper.py").unlink()
    book.assert_entries_kept(before)


def test_every_earlier_block_of_the_session_is_in_the_key(book):
    first = book.root / "snippets" / "session" / "first.py"
    original = first.read_text()
    before = book.entries()
    first.write_text(original + "# an edit in the first block\n")
    # first and second run; the fresh block is outside the session, so it stays cached
    assert book.counts() == {"executed": 2, "cached": 2, "replayed": 0}
    first.write_text(original)
    book.assert_entries_kept(before)


def test_the_block_options_are_in_the_key(book):
    before = book.entries()
    book.session_page(options=' timeout="60"')
    assert book.counts() == {"executed": 1, "cached": 3, "replayed": 1}
    book.session_page()
    book.assert_entries_kept(before)


def test_package_versions_are_in_the_key(book, tmp_path):
    """A distribution a block can import (here ml_dtypes, which JAX needs) appearing or
    changing its version on the path makes every block run; a tool no block can import
    (issue 41: the test tools) leaves the cache as it is."""
    before = book.entries()
    extra = tmp_path / "extra"
    extra.mkdir()
    baseline = book.counts(PYTHONPATH=str(extra))  # PYTHONPATH itself is in the key
    assert baseline["executed"] == 4

    def install(name: str, version: str) -> None:
        info = extra / f"{name}.dist-info"
        info.mkdir(exist_ok=True)
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")

    install("book_fake_tool", "1.0")
    assert book.counts(PYTHONPATH=str(extra))["executed"] == 0
    for version in ("98.0", "99.0"):
        install("ml_dtypes", version)
        assert book.counts(PYTHONPATH=str(extra))["executed"] == 4, version
    book.assert_entries_kept(before)


def test_an_edited_package_runs_the_blocks_that_import_it_again_at_the_same_version(book, tmp_path):
    """Issue 53: a package on the path (as an editable install's source folder is) edited
    without a new version: the warm build ran nothing and stayed green with the old output.
    Each entry holds the fingerprint of the code its block imported: the block that imports
    it runs again and drifts; the others stay cached."""
    src = tmp_path / "src"
    (src / "bookpkg").mkdir(parents=True)
    (src / "bookpkg" / "__init__.py").write_text("from bookpkg.words import WORD\n")
    words = src / "bookpkg" / "words.py"
    words.write_text("WORD = 'alone'\n")
    info = src / "bookpkg-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: bookpkg\nVersion: 1.0\n")
    alone = book.root / "snippets" / "other" / "alone.py"
    original = alone.read_text()
    before = book.entries()
    alone.write_text("import bookpkg\n\nprint(bookpkg.WORD)\n")  # prints its golden
    env = {"PYTHONPATH": str(src)}
    try:
        assert book.counts(**env)["executed"] == 4  # PYTHONPATH is in the key
        assert book.counts(**env) == {"executed": 0, "cached": 4, "replayed": 0}
        words.write_text("WORD = 'alone, edited'\n")  # same version, same size or not
        edited = book.cached_build(**env)
        found = SUMMARY.search(edited.output)
        assert found and found[1] == "1", f"stale cache: {edited.output[-1500:]}"
        assert edited.returncode != 0 and "+alone, edited" in edited.output, edited.output
        words.write_text("WORD = 'alone'\n")
        assert book.counts(**env) == {"executed": 1, "cached": 3, "replayed": 0}
        book.assert_all_cached(**env)
    finally:
        alone.write_text(original)
    book.assert_entries_kept(before)


@pytest.mark.parametrize(
    ("name", "value"),
    [("JAX_ENABLE_X64", "1"), ("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false")],
)
def test_the_environment_jax_reads_is_in_the_key(book, name, value):
    before = book.entries()
    assert book.counts(**{name: value})["executed"] == 4
    book.assert_entries_kept(before)


@pytest.mark.parametrize(("name", "value"), [("BOOK_BLOCK_TIMEOUT", "77"), ("BOOK_HASH_SEED", "7")])
def test_a_setting_given_by_its_variable_is_in_the_key(book, name, value):
    """The book's BOOK_* variables are keyed through the settings they set, not as text."""
    before = book.entries()
    assert book.counts(**{name: value})["executed"] == 4
    book.assert_entries_kept(before)


def test_unrelated_environment_is_not_in_the_key(book):
    book.assert_all_cached(BOOK_JOBS="1", SOME_UNRELATED_SETTING="x")


def test_a_launch_that_prepends_to_path_or_sets_the_serve_s_variables_keeps_the_cache(
    book, tmp_path
):
    """Issue 55: pyenv's shim prepends its own folders to PATH, so the first `./book serve` of a
    fresh clone (through the shim) and the next one (from .venv) differed only there, and the
    second ran every block again. Neither PATH nor the serve's own BOOK_* variables change
    what a block prints."""
    shim = tmp_path / "shim-bin"
    shim.mkdir()
    path = os.pathsep.join([str(shim), str(tmp_path), os.environ["PATH"]])
    book.assert_all_cached(PATH=path, BOOK_SERVE_WAIT="1", BOOK_SERVE_REFRESH="5")


def test_python_executor_and_checkout_are_in_the_key():
    base = dict(environ={}, python="3.13.0", packages=["jax==1"], prefix="/v", root="/r")
    key = cache.fingerprint(**base, executor=b"worker")
    changed = {
        "python": {"python": "3.13.1"},
        "packages": {"packages": ["jax==2"]},
        "prefix": {"prefix": "/other-venv"},
        "root": {"root": "/elsewhere"},
        "env": {"environ": {"JAX_PLATFORMS": "cpu"}},
    }
    for part, change in changed.items():
        assert cache.fingerprint(**{**base, **change}, executor=b"worker") != key, part
    assert cache.fingerprint(**base, executor=b"worker, edited") != key
    for environ in ({"BOOK_JOBS": "4"}, {"PATH": "/shim/bin:/usr/bin"}, {"BOOK_SERVE_WAIT": "1"}):
        assert cache.fingerprint(**{**base, "environ": environ}, executor=b"worker") == key


def test_a_cached_output_is_still_compared_with_its_golden(book):
    alone = book.root / "snippets" / "other" / "alone.py"
    alone.write_text("print('changed')\n")
    assert book.build("update").returncode == 0  # the golden now says 'changed'
    alone.write_text("print('alone')\n")  # back to the code whose output is cached
    result = book.cached_build()
    assert result.returncode != 0, result.output
    assert "1 blocks executed" not in result.output and "-changed\n+alone" in result.output
    alone.write_text("print('changed')\n")
    assert book.counts()["executed"] == 0  # the update above ran this code, and stored it
    alone.write_text("print('alone')\n")
    assert book.build("update").returncode == 0
    book.assert_all_cached()


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda text: text[: len(text) // 2], id="truncated"),
        pytest.param(lambda text: "\udcff not json", id="garbage"),
        pytest.param(lambda text: json.dumps({**json.loads(text), "schema": 0}), id="old-schema"),
        pytest.param(lambda text: json.dumps({**json.loads(text), "facts": 3}), id="wrong-type"),
    ],
)
def test_a_damaged_entry_warns_and_runs_again(book, damage):
    entries = sorted((book.root / ".cache" / "bookexec" / "blocks").glob("other.md__alone.*"))
    assert entries
    newest = max(entries, key=lambda p: p.stat().st_mtime)
    newest.write_bytes(damage(newest.read_text()).encode("utf-8", "surrogateescape"))
    result = book.cached_build()
    assert result.returncode == 0, result.output  # strict, yet the cache cannot fail it
    assert "WARNING -  bookexec cache:" in result.output and "other.md__alone" in result.output
    assert SUMMARY.search(result.output)[1] == "1"
    book.assert_all_cached()


def _set(path: str, value: object) -> Callable[[dict], None]:
    """Set one field of an entry (`facts.0.value`: the first fact's value)."""

    def damage(entry: dict) -> None:
        *parents, last = path.split(".")
        for part in parents:
            entry = entry[int(part)] if part.isdigit() else entry[part]
        entry[int(last) if last.isdigit() else last] = value

    return damage


def _drop(path: str) -> Callable[[dict], None]:
    def damage(entry: dict) -> None:
        *parents, last = path.split(".")
        for part in parents:
            entry = entry[int(part)] if part.isdigit() else entry[part]
        del entry[last]

    return damage


# Every field of an entry, at the top and in its facts and claims: a wrong type, null, missing.
_WRONG = {
    "schema": "3",
    "page": 1,
    "block": ["alone"],
    "output": 7,
    "seconds": "x",
    "backend": {"cpu": 1},
    "devices": "x",
    "facts": {"n": 1},
    "claims": "n > 1",
    "facts.0": "n = 1",
    "facts.0.name": 3,
    "facts.0.kind": "guess",
    "facts.0.value": [1],
    "facts.0.band": "wide",
    "claims.0": ["n", ">", 1],
    "claims.0.left": None,
    "claims.0.op": "!=",
    "claims.0.right": {"x": 1},
    "claims.0.says": 5,
}
_OPTIONAL = {"claims.0.says"}  # a claim may say no sentence
DAMAGES = [
    *(pytest.param(_set(path, value), id=f"{path}-wrong-type") for path, value in _WRONG.items()),
    # An exact fact's band is null: a timing's is not.
    *(
        pytest.param(_set(path, None), id=f"{path}-null")
        for path in _WRONG
        if path != "facts.0.band"
    ),
    pytest.param(_set("facts.1.band", None), id="facts.1.band-null"),
    *(
        pytest.param(_drop(path), id=f"{path}-missing")
        for path in _WRONG
        if path not in _OPTIONAL and not path.split(".")[-1].isdigit()
    ),
    pytest.param(_set("garbage", "x"), id="extra-field"),
    pytest.param(_set("facts.0.garbage", 1), id="facts.0-extra-field"),
    pytest.param(_set("claims.0.garbage", 1), id="claims.0-extra-field"),
    pytest.param(_set("seconds", float("nan")), id="seconds-nan"),
    pytest.param(_set("devices", -2), id="devices-negative"),
    pytest.param(_set("devices", True), id="devices-bool"),
    pytest.param(_set("facts.1.value", "slow"), id="timing-value-text"),
    # Issue 53: values JSON holds that no float does, or that would break a golden's line.
    *(
        pytest.param(_set(path, 10**400), id=f"{path}-huge")
        for path in ("seconds", "devices", "facts.0.value", "facts.1.value", "facts.1.band")
    ),
    pytest.param(_set("claims.0.right", 10**400), id="claims.0.right-huge"),
    pytest.param(_set("facts.1.band", -0.5), id="band-negative"),
    pytest.param(_set("facts.0.value", "3\ntwo lines"), id="facts.0.value-newline"),
    pytest.param(_set("facts.0.name", "n\nm"), id="facts.0.name-newline"),
    pytest.param(_set("claims.0.says", "more\nclaim: n < 0"), id="claims.0.says-newline"),
    pytest.param(_set("claims.0.right", "t\nx"), id="claims.0.right-newline"),
    pytest.param(_set("backend", "cpu\nx"), id="backend-newline"),
]


@pytest.mark.parametrize("damage", DAMAGES)
def test_every_field_of_an_entry_is_checked_a_bad_one_warns_and_runs_again(tmp_path, damage):
    """A real entry, saved by the cache, read back through the executor as a build does; any
    field damaged is a warning and a miss (the block runs again), never an exception."""
    block = Block("other.md", 0, 3, "alone", "snippets/other/alone.py", "print(1)\n", {})
    blocks = BlockCache(tmp_path / ".cache" / "bookexec" / "blocks")
    executor = Executor(tmp_path, ExecutorOptions(environ={}, cache=blocks), PythonRuntime())
    try:
        facts = [Fact("n", "exact", 3), Fact("t", "timing", 0.5, 0.2)]
        claims = [Claim("n", ">", 1.0, "more")]
        run = BlockRun(block, output="1\n", seconds=0.25, facts=facts, claims=claims)
        blocks.save(block, "k", cache_entry(run, "cpu", 1))
        assert executor.cached(block, "k") is not None  # the entry as saved is a hit
        (path,) = blocks.folder.glob("*.json")
        entry = json.loads(path.read_text())
        damage(entry)
        path.write_text(json.dumps(entry))
        assert executor.cached(block, "k") is None
        assert blocks.warnings == 1
    finally:
        executor.close()


@pytest.mark.parametrize("field", ["output", "facts", "seconds"])
def test_an_entry_nested_deeper_than_python_parses_warns_and_runs_again(tmp_path, field):
    """Issue 53: a field nested a million levels deep is a RecursionError in `json.loads`; it
    is a warning and a miss like any damaged entry, not a traceback that ends the build."""
    block = Block("other.md", 0, 3, "alone", "snippets/other/alone.py", "print(1)\n", {})
    blocks = BlockCache(tmp_path / ".cache" / "bookexec" / "blocks")
    executor = Executor(tmp_path, ExecutorOptions(environ={}, cache=blocks), PythonRuntime())
    try:
        run = BlockRun(block, output="1\n", seconds=0.25)
        blocks.save(block, "k", cache_entry(run, "cpu", 1))
        (path,) = blocks.folder.glob("*.json")
        entry = json.loads(path.read_text())
        entry[field] = "DEEP"
        deep = "[" * 1_000_000 + "]" * 1_000_000
        path.write_text(json.dumps(entry).replace('"DEEP"', deep))
        assert executor.cached(block, "k") is None
        assert blocks.warnings == 1
    finally:
        executor.close()


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(_set("devices", "x"), id="devices-text"),
        pytest.param(_set("devices", None), id="devices-null"),
        pytest.param(_set("claims", [{"left": "a", "op": "!=", "right": 1}]), id="claim-op"),
        pytest.param(_set("seconds", 10**400), id="seconds-huge"),  # issue 53: a traceback
    ],
)
def test_a_bad_field_in_a_real_cache_entry_warns_and_the_strict_build_passes(book, damage):
    entries = sorted((book.root / ".cache" / "bookexec" / "blocks").glob("other.md__alone.*"))
    newest = max(entries, key=lambda p: p.stat().st_mtime)
    entry = json.loads(newest.read_text())
    damage(entry)
    newest.write_text(json.dumps(entry))
    result = book.cached_build()
    assert result.returncode == 0, result.output
    assert "WARNING -  bookexec cache:" in result.output and "other.md__alone" in result.output
    assert "Traceback" not in result.output
    assert SUMMARY.search(result.output)[1] == "1"  # the block ran again
    book.assert_all_cached()


def test_an_unusable_cache_folder_warns_and_the_build_still_passes(tmp_path):
    site = CachedBook(tmp_path / "book")
    (site.root / "docs").mkdir(parents=True)
    (site.root / "mkdocs.yml").write_text(CONFIG)
    site.page("other.md", OTHER_PAGE)
    site.snippet("other/alone.py", "print('alone')\n")
    assert site.build("update", BOOK_CACHE="off").returncode == 0
    (site.root / ".cache" / "bookexec").mkdir(
        parents=True, exist_ok=True
    )  # run-times.json may be there
    (site.root / ".cache" / "bookexec" / "blocks").write_text("a file where a folder should be")
    result = site.cached_build()
    assert result.returncode == 0, result.output
    assert "WARNING -  bookexec cache: could not save" in result.output


def test_cache_off_update_mode_and_plain_builds_never_read_it(book):
    book.assert_all_cached()
    for env in ({"BOOK_CACHE": "off"}, {}):
        result = book.build(**env)
        assert result.returncode == 0 and SUMMARY.search(result.output)[1] == "4", env
    result = book.build("update", BOOK_CACHE="on")
    assert result.returncode == 0 and SUMMARY.search(result.output)[1] == "4"


def test_exec_off_shows_goldens_and_runs_nothing(book):
    book.snippet("other/alone.py", "raise SystemExit('this would fail if it ran')\n")
    try:
        result = book.build(BOOK_EXEC="off")
        assert result.returncode == 0, result.output
        assert "0 blocks executed, 4 shown from goldens" in result.output
        html = (book.root / "site" / "other" / "index.html").read_text()
        assert "SystemExit" in html  # the source is shown...
        assert "<code>alone\n</code>" in html.split('class="result"', 1)[1]  # ...with its golden
    finally:
        book.snippet("other/alone.py", "print('alone')\n")
