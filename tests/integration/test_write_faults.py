"""A golden the update cannot write is an error naming it and why, never a traceback; every
other golden, and VERSIONS, is still written and said.

The faults are the machine's own, made for real: an immutable folder (`chattr +i`, which stops
root too), a read-only bind mount, and a full disk (a small tmpfs filled up). Each needs root
and the mechanism; a test skips, saying which, only where it is missing.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_review import drifted_book, entries_at, review

from conftest import Site

pytestmark = pytest.mark.build

STALE_VERSIONS = "python: 0.0\nbackend: cpu\n"  # an older run's: the update rewrites it
BIG = 'print("b" * 30000)\n'  # its golden takes pages of a disk; the small one, one


def _two_pages(site: Site) -> None:
    for page, block, code in (("a.md", "small", 'print("a")\n'), ("b.md", "big", 'print("b")\n')):
        name = page.removesuffix(".md")
        site.page(
            page,
            f'# {name}\n\n```python exec="on" id="{block}"\n'
            f'--8<-- "snippets/{name}/{block}.py"\n```\n',
        )
        site.snippet(f"{name}/{block}.py", code)
    result = site.build("update")
    assert result.returncode == 0, result.output


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, capture_output=True, text=True, check=False)


@contextlib.contextmanager
def immutable(folder: Path) -> Iterator[None]:
    """`chattr +i`: nothing may be created, renamed or deleted in it, even by root."""
    if shutil.which("chattr") is None:
        pytest.skip("chattr is not installed: no immutable folder can be made here")
    made = _run("chattr", "+i", str(folder))
    if made.returncode != 0:
        pytest.skip(f"chattr +i does not work here: {made.stderr.strip()}")
    try:
        yield
    finally:
        _run("chattr", "-i", str(folder))


@contextlib.contextmanager
def read_only_mount(folder: Path) -> Iterator[None]:
    """The folder bind-mounted over itself, read-only."""
    bound = _run("mount", "--bind", str(folder), str(folder))
    if bound.returncode != 0:
        pytest.skip(f"cannot bind-mount here (needs root): {bound.stderr.strip()}")
    try:
        remounted = _run("mount", "-o", "remount,bind,ro", str(folder))
        if remounted.returncode != 0:
            pytest.skip(f"cannot remount read-only here: {remounted.stderr.strip()}")
        yield
    finally:
        _run("umount", str(folder))


@contextlib.contextmanager
def full_disk(folder: Path) -> Iterator[None]:
    """A small tmpfs over the folder (its files copied in), filled but for two pages: a small
    golden still fits, the big one does not."""
    saved = folder.parent / f".{folder.name}-saved"
    shutil.copytree(folder, saved)
    mounted = _run("mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(folder))
    if mounted.returncode != 0:
        shutil.rmtree(saved)
        pytest.skip(f"cannot mount a tmpfs here (needs root): {mounted.stderr.strip()}")
    try:
        shutil.copytree(saved, folder, dirs_exist_ok=True)
        filler = folder / "filler.bin"
        with open(filler, "wb") as handle, contextlib.suppress(OSError):
            while True:
                handle.write(b"\0" * 4096)
                handle.flush()
        os.truncate(filler, max(0, filler.stat().st_size - 2 * 4096))
        yield
    finally:
        # What the update left is copied out before the tmpfs goes, to be checked.
        kept = folder.parent / f".{folder.name}-after"
        shutil.copytree(folder, kept, ignore=shutil.ignore_patterns("filler.bin"))
        _run("umount", str(folder))
        shutil.rmtree(folder)
        kept.rename(folder)
        shutil.rmtree(saved)


@pytest.mark.parametrize(
    ("fault", "where", "reason"),
    [
        pytest.param(immutable, "b", "Operation not permitted", id="chattr-immutable"),
        pytest.param(read_only_mount, "b", "Read-only file system", id="read-only-mount"),
        pytest.param(full_disk, "", "No space left on device", id="full-disk"),
    ],
)
def test_an_unwritable_golden_is_named_and_every_other_write_is_made(
    prebuilt, tmp_path, fault, where, reason
):
    book = prebuilt(_two_pages, tmp_path)
    golden_dir = book.root / "tests" / "golden"
    old_big = book.golden("b.md", "big").read_text()
    (golden_dir / "VERSIONS").write_text(STALE_VERSIONS)
    book.snippet("a/small.py", 'print("a, changed")\n')
    book.snippet("b/big.py", BIG)
    with fault(golden_dir / where if where else golden_dir):
        result = book.build("update")
    output = result.output
    assert result.returncode != 0, output
    assert "Traceback" not in output, output[-800:]
    assert f"COULD NOT WRITE: tests/golden/b/big.txt: {reason}" in output
    # Every write that could be made was made, and said.
    assert "a, changed" in book.golden("a.md", "small").read_text()
    assert "rewrote tests/golden/a/small.txt" in output
    assert (golden_dir / "VERSIONS").read_text() != STALE_VERSIONS
    assert "in tests/golden/VERSIONS" in output
    # The one that could not be is as it was, with no temporary file left beside it.
    assert book.golden("b.md", "big").read_text() == old_big
    assert not list((golden_dir / "b").glob(".*.tmp"))
    assert "1 written (0 new), 1 could not be written" in output


def test_a_golden_the_review_cannot_write_is_named_and_kept_for_review(prebuilt, tmp_path):
    book = prebuilt(drifted_book, tmp_path)
    golden = book.golden("review.md", "product")
    before = golden.read_text()
    with immutable(golden.parent):
        result = review(book, "--accept-cosmetic")
    assert "Traceback" not in result.stdout + result.stderr, result.stderr[-1500:]
    assert (
        "not accepted: could not write tests/golden/review/product.txt: Operation not permitted"
        in result.stdout
    ), result.stdout + result.stderr
    assert "0 cosmetic accepted" in result.stdout
    assert golden.read_text() == before
    assert any(entry["block_id"] == "product" for entry in entries_at(book.root))
