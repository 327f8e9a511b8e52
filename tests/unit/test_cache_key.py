"""The block cache's key follows what a block can import (issue 41): the installed closure of
the book's own requirements, not every distribution. Installing a test tool leaves it as it
is; another version of JAX, or of anything JAX needs, changes it. A distribution is "installed"
here as pip installs one: a `*.dist-info` folder with its METADATA on the path."""

from __future__ import annotations

import sys

import pytest

from bookexec._internal.execute.cache import packages_seen

pytestmark = pytest.mark.engine


def install(folder, name: str, version: str, requires: tuple[str, ...] = ()) -> None:
    info = folder / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir(parents=True)
    lines = [f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"]
    lines += [f"Requires-Dist: {requirement}\n" for requirement in requires]
    (info / "METADATA").write_text("".join(lines))


@pytest.mark.needs_book
def test_the_key_holds_the_runtime_closure_and_not_the_test_tools():
    seen = {entry.split("==")[0].lower() for entry in packages_seen()}
    assert {"jax", "jaxlib", "numpy", "ml-dtypes", "mkdocs"} <= seen
    assert not seen & {"pytest", "ruff", "mypy", "playwright", "pytest-timeout"}


def test_installing_a_tool_no_block_imports_keeps_the_key(tmp_path, monkeypatch):
    before = packages_seen()
    install(tmp_path, "some-linter", "1.0", ("pytest>=8",))
    monkeypatch.syspath_prepend(str(tmp_path))
    assert packages_seen() == before


@pytest.mark.needs_book
def test_another_version_in_jax_closure_changes_the_key(tmp_path, monkeypatch):
    before = packages_seen()
    install(tmp_path, "ml_dtypes", "99.0")  # what jax needs, upgraded
    monkeypatch.syspath_prepend(str(tmp_path))
    assert packages_seen() != before
    assert "ml-dtypes==99.0" in packages_seen()
    assert sys.path[0] == str(tmp_path)


def test_the_engine_s_distribution_is_found_by_what_it_declares_not_by_reading_every_file(
    monkeypatch,
):
    """Finding which distribution holds the engine by `packages_distributions` reads and looks
    for every file of every installed distribution: seconds before the first page of
    `./book serve` (issue 41). The book's own distribution declares its `bookexec`
    (`top_level.txt`), which is read first; the key is the same."""
    from bookexec._internal.execute import cache

    before = packages_seen()

    def every_file() -> dict[str, list[str]]:
        raise AssertionError("packages_distributions() read every distribution's files")

    monkeypatch.setattr(cache, "packages_distributions", every_file)
    assert packages_seen() == before


def test_installed_code_fingerprints_every_file_of_a_package_but_its_bytecode(tmp_path):
    """Issue 53: what a block imported is checked by its files, not its version: an edit of
    the same size, a new file or a removed one is another fingerprint in the next build
    (`forget`); bytecode written beside the sources is not."""
    import os

    from bookexec._internal.execute.cache import InstalledCode

    package = tmp_path / "pkg"
    (package / "__pycache__").mkdir(parents=True)
    source = package / "__init__.py"
    source.write_text("WORD = 'a'\n")
    code = InstalledCode()
    recorded = code.record({"pkg": [str(package)]})
    assert recorded == [["pkg", [str(package)], code.digest([str(package)])]]

    def changed() -> bool:
        code.forget()
        return not code.unchanged(recorded)

    (package / "__pycache__" / "__init__.cpython-313.pyc").write_bytes(b"\0")
    assert not changed()
    stat = source.stat()
    source.write_text("WORD = 'b'\n")  # the same size
    os.utime(source, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1))
    assert changed()
    recorded = code.record({"pkg": [str(package)]})
    (package / "extra.py").write_text("")
    assert changed()
    (package / "extra.py").unlink()
    assert not changed()
    source.unlink()
    assert changed()


def test_a_sharded_runs_fingerprint_is_of_the_bytes_and_any_build_checks_it_so(tmp_path):
    """Issue 57: a sharded run's entries are read on other machines, whose installs wrote the
    same files at other times. Its fingerprints (`content=True`) hold the files' bytes: the
    same bytes written again are the same code, an edit of the same size is not; and a build
    whose own fingerprints are of the times checks a recorded one of the bytes by the bytes."""
    import os

    from bookexec._internal.execute.cache import CONTENT, InstalledCode

    package = tmp_path / "pkg"
    package.mkdir()
    source = package / "__init__.py"
    source.write_text("WORD = 'a'\n")
    shard, build = InstalledCode(content=True), InstalledCode()
    recorded = shard.record({"pkg": [str(package)]})
    assert recorded[0][2].startswith(CONTENT)
    assert not build.digest([str(package)]).startswith(CONTENT)

    def unchanged() -> list[bool]:
        for code in (shard, build):
            code.forget()
        return [code.unchanged(recorded) for code in (shard, build)]

    assert unchanged() == [True, True]
    later = source.stat().st_mtime_ns + 10**12
    os.utime(source, ns=(later, later))  # reinstalled, the same bytes
    assert unchanged() == [True, True]
    source.write_text("WORD = 'b'\n")  # the same size
    os.utime(source, ns=(later, later))
    assert unchanged() == [False, False]
