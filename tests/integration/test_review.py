"""`./book review`: walk the drift a failed check left behind, through a real terminal too."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pexpect
import pytest

from bookexec._internal.goldens.review import REPORT

pytestmark = pytest.mark.build

PAGE = """\
# Review

```python exec="on" id="product"
--8<-- "snippets/review/product.py"
```

```python exec="on" id="wave"
--8<-- "snippets/review/wave.py"
```
"""

NEW_BLOCK = """
```python exec="on" id="late"
--8<-- "snippets/review/late.py"
```
"""

PRODUCT = """\
import jax
import jax.numpy as jnp


def product(x, y):
    a = jnp.sin(x)
    b = jnp.cos(y)
    return a * b


print(jax.make_jaxpr(product)(1.0, 2.0))
"""

WAVE = """\
print(jax.make_jaxpr(lambda x: jnp.sin(x) * 2.0)(1.0))
"""


def drifted_book(site):
    """A book whose last check left cosmetic, structural and new blocks to review."""
    site.page("review.md", PAGE)
    site.snippet("review/product.py", PRODUCT)
    site.snippet("review/wave.py", WAVE)
    assert site.build("update").returncode == 0
    # The same function traced in the other order: cosmetic. stop_gradient: structural.
    swapped = PRODUCT.replace(
        "    a = jnp.sin(x)\n    b = jnp.cos(y)\n", "    b = jnp.cos(y)\n    a = jnp.sin(x)\n"
    )
    assert swapped != PRODUCT
    site.snippet("review/product.py", swapped)
    site.snippet("review/wave.py", WAVE.replace("jnp.sin(x)", "jnp.sin(jax.lax.stop_gradient(x))"))
    site.page("review.md", PAGE + NEW_BLOCK)
    site.snippet("review/late.py", 'print("late:", 3)\n')
    checked = site.build()
    assert checked.returncode != 0
    assert "DRIFTED (cosmetic): page docs/review.md, block 'product'" in checked.output
    assert "DRIFTED (structural): page docs/review.md, block 'wave'" in checked.output
    assert "./book review" in checked.output


@pytest.fixture
def drifted(prebuilt, tmp_path):
    return prebuilt(drifted_book, tmp_path)


def report(site) -> list[dict]:
    return entries_at(site.root)


def entries_at(root) -> list[dict]:
    path = root / REPORT
    return json.loads(path.read_text())["entries"] if path.exists() else []


def review(site, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "jaxbook.cli", "review", *args],
        cwd=site.root,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_failed_check_leaves_a_report_with_each_class(drifted):
    entries = report(drifted)
    assert [(e["block_id"], e["kind"]) for e in entries] == [  # the report's order
        ("wave", "structural"),
        ("late", "new"),
        ("product", "cosmetic"),
    ]
    wave = entries[0]
    assert "stop_gradient" in wave["aligned"] and wave["diff"].startswith("--- ")
    assert wave["expected"] == drifted.golden("review.md", "wave").read_text()


def test_accept_cosmetic_writes_what_the_update_mode_writes_and_lists_the_rest(drifted):
    before = drifted.goldens()
    result = review(drifted, "--accept-cosmetic")
    assert result.returncode == 0, result.stderr
    assert "docs/review.md#product: rewrote tests/golden/review/product.txt" in result.stdout
    assert "1 cosmetic accepted; 2 left for review" in result.stdout
    assert "  structural: docs/review.md#wave" in result.stdout
    assert "  new: docs/review.md#late" in result.stdout
    after = drifted.goldens()
    assert after["review/product.txt"] != before["review/product.txt"]
    assert after["review/wave.txt"] == before["review/wave.txt"]
    assert [e["block_id"] for e in report(drifted)] == ["wave", "late"]
    # The update mode now rewrites the other two, and leaves the accepted golden as it is.
    updated = drifted.build("update")
    assert "rewrote tests/golden/review/wave.txt" in updated.output
    assert "wrote new tests/golden/review/late.txt" in updated.output
    assert "review/product.txt" not in updated.output
    assert drifted.goldens()["review/product.txt"] == after["review/product.txt"]
    assert not (drifted.root / REPORT).exists()


def test_without_a_terminal_it_only_lists(drifted):
    before = drifted.goldens()
    result = review(drifted)
    assert result.returncode == 0
    assert "not a terminal; listing only" in result.stdout
    assert "structural: docs/review.md#wave" in result.stdout
    assert drifted.goldens() == before


# pexpect forks a pseudo-terminal and execs at once, so JAX's threads in pytest do not matter.
@pytest.mark.filterwarnings("ignore:.*fork")
def test_interactive_review_through_a_terminal(drifted):
    before = drifted.goldens()
    child = pexpect.spawn(
        sys.executable,
        ["-m", "jaxbook.cli", "review"],
        cwd=str(drifted.root),
        env={**os.environ, "TERM": "dumb"},
        encoding="utf-8",
        timeout=30,
    )
    child.expect(r"review: 3 blocks \(1 structural, 1 new, 1 cosmetic\)")
    child.expect(r"\[1/3\] STRUCTURAL  docs/review.md#wave")
    child.expect(r"primitive added: stop_gradient")
    child.expect(r"\[a/s/r/q\] ")
    child.send("r")  # one key, no Enter
    child.expect(r"rejected: tests/golden/review/wave.txt keeps its text")
    child.expect(r"\[2/3\] NEW  docs/review.md#late")
    child.expect(r"late: 3")
    child.expect(r"\[a/s/r/q\] ")
    child.send("a")
    child.expect(r"wrote new tests/golden/review/late.txt")
    child.expect(r"\[3/3\] COSMETIC  docs/review.md#product")
    child.expect(r"cosmetic: the same program")
    child.expect(r"\[a/s/r/q\] ")
    child.send("s")
    child.expect(r"1 accepted, 1 rejected, 1 skipped; 1 left")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0

    after = drifted.goldens()
    assert after["review/product.txt"] == before["review/product.txt"]  # skipped
    assert after["review/wave.txt"] == before["review/wave.txt"]  # rejected
    assert "late: 3" in after["review/late.txt"]  # accepted
    assert [e["block_id"] for e in report(drifted)] == ["product"]

    # What is left fails the next check: the rejected block until its snippet changes.
    checked = drifted.build()
    assert "DRIFTED (cosmetic): page docs/review.md, block 'product'" in checked.output
    assert "DRIFTED (structural): page docs/review.md, block 'wave'" in checked.output
    assert "NEW:" not in checked.output


def test_a_golden_changed_since_the_report_is_not_overwritten(drifted):
    path = drifted.golden("review.md", "product")
    path.write_text(path.read_text() + "edited\n")
    result = review(drifted, "--accept-cosmetic")
    assert "not accepted: tests/golden/review/product.txt changed since the build" in result.stdout
    assert path.read_text().endswith("edited\n")


def test_the_next_build_replaces_an_old_report(drifted):
    drifted.snippet("review/late.py", "missing_name\n")  # a failure is in the report too
    failed = drifted.build()
    assert failed.returncode != 0 and "NameError" in failed.output
    entries = report(drifted)
    assert entries[0]["kind"] == "failed" and entries[0]["block_id"] == "late"
    assert "NameError" in entries[0]["notes"][0]
    result = review(drifted, "--accept-cosmetic")
    assert "failed: docs/review.md#late" in result.stdout  # shown, never accepted


def test_a_damaged_report_is_a_clear_error(drifted):
    (drifted.root / REPORT).write_text('{"format": 1, "entries": [{"page": 3}]')
    result = review(drifted, "--list")
    assert result.returncode != 0
    assert "last-report.json is damaged" in result.stderr
    assert "Traceback" not in result.stderr


def test_no_report_is_a_clear_error(site):
    result = review(site)
    assert result.returncode != 0
    assert "no report at .cache/bookexec/last-report.json" in result.stderr


def test_quit_keeps_this_block_and_the_rest_for_later(tmp_path):
    from bookexec._internal.command.terminal import interactive
    from bookexec._internal.goldens.review import Entry

    golden = tmp_path / "tests/golden/p/one.txt"
    golden.parent.mkdir(parents=True)
    golden.write_text("old\n")
    entries = [
        Entry(
            "p.md",
            block,
            f"snippets/p/{block}.py",
            f"tests/golden/p/{block}.txt",
            "cosmetic",
            expected="old\n",
            actual="new\n",
        )
        for block in ("one", "two")
    ]
    said: list[str] = []
    interactive(tmp_path, {"written": "now"}, entries, ask=lambda _: "q", say=said.append)
    assert said[-1] == f"review: 0 accepted, 0 rejected, 2 skipped; 2 left in {REPORT}"
    assert [e["block_id"] for e in entries_at(tmp_path)] == ["one", "two"]
    assert golden.read_text() == "old\n"


# -- issue 25: the review and the update write only inside tests/golden/ ----------------------


def forged(root, entries: list[dict]) -> None:
    """Replace the entries of the report the last build left (keeping whatever header makes it
    the last build's), as a snippet or a copied file could."""
    path = root / REPORT
    data = json.loads(path.read_text())
    template = dict(data["entries"][-1])
    data["entries"] = [{**template, "notes": [], "broken": [], **entry} for entry in entries]
    path.write_text(json.dumps(data))


def test_a_forged_report_cannot_create_change_or_delete_files_outside_the_goldens(drifted):
    root = drifted.root
    outside = root.parent / "outside.txt"
    config = (root / "mkdocs.yml").read_text()
    page = (root / "docs" / "review.md").read_text()
    forged(
        root,
        [
            {"golden": "../outside.txt", "kind": "cosmetic", "expected": None, "actual": "new"},
            {"golden": str(outside), "kind": "cosmetic", "expected": None, "actual": "new"},
            {"golden": "docs/review.md", "kind": "cosmetic", "expected": page, "actual": "x"},
            {"golden": "tests/golden/../../mkdocs.yml", "kind": "cosmetic"}
            | {"expected": config, "actual": None},
            {"golden": "mkdocs.yml", "kind": "cosmetic", "expected": config, "actual": None},
        ],
    )
    result = review(drifted, "--accept-cosmetic")
    assert not outside.exists()
    assert (root / "mkdocs.yml").read_text() == config
    assert (root / "docs" / "review.md").read_text() == page
    assert result.stdout.count("not accepted: refused:") == 5, result.stdout + result.stderr
    assert "Traceback" not in result.stderr


def test_a_golden_folder_that_is_a_symlink_is_refused_by_the_review(drifted):
    root = drifted.root
    away = root.parent / "away"
    (root / "tests" / "golden" / "review").rename(away)
    (root / "tests" / "golden" / "review").symlink_to(away)
    before = {p.name: p.read_text() for p in away.iterdir()}
    result = review(drifted, "--accept-cosmetic")
    assert "not accepted: refused:" in result.stdout and "is a symlink" in result.stdout
    assert {p.name: p.read_text() for p in away.iterdir()} == before


def test_a_report_from_an_earlier_build_is_not_trusted(drifted):
    old = (drifted.root / REPORT).read_text()
    assert drifted.build().returncode != 0  # a new check: its own report
    (drifted.root / REPORT).write_text(old)  # the old one put back
    before = drifted.goldens()
    result = review(drifted, "--accept-cosmetic")
    assert result.returncode != 0
    assert "does not belong to the last build of this checkout" in result.stderr
    assert drifted.goldens() == before


def test_a_report_copied_from_another_checkout_is_not_trusted(drifted, tmp_path):
    from conftest import new_site

    site = new_site(tmp_path / "other")
    (site.root / REPORT).parent.mkdir(parents=True)
    (site.root / REPORT).write_text((drifted.root / REPORT).read_text())
    result = review(site, "--accept-cosmetic")
    assert result.returncode != 0
    assert "does not belong to the last build of this checkout" in result.stderr


PLANTER = """\
import json, pathlib
report = pathlib.Path(".cache/bookexec/last-report.json")
report.parent.mkdir(parents=True, exist_ok=True)
report.write_text(json.dumps({"format": 1, "written": "x", "summary": "", "versions": None,
    "entries": [{"page": "", "block_id": "", "snippet": "", "golden": "mkdocs.yml",
                 "kind": "cosmetic", "expected": None, "actual": "planted"}]}))
print("planted")
"""


def test_a_passing_build_clears_a_report_a_snippet_planted(site):
    site.page(
        "plant.md", '# P\n\n```python exec="on" id="plant"\n--8<-- "snippets/plant/p.py"\n```\n'
    )
    site.snippet("plant/p.py", PLANTER)
    assert site.build("update").returncode == 0
    assert not (site.root / REPORT).exists()
    checked = site.build()
    assert checked.returncode == 0, checked.output
    assert not (site.root / REPORT).exists(), "the planted report survived a passing build"


def test_the_update_refuses_a_golden_folder_that_is_a_symlink(drifted):
    root = drifted.root
    away = root.parent / "elsewhere"
    (root / "tests" / "golden" / "review").rename(away)
    (root / "tests" / "golden" / "review").symlink_to(away)
    before = {p.name: p.read_text() for p in away.iterdir()}
    updated = drifted.build("update")
    assert updated.returncode != 0
    assert "REFUSED WRITE: refused:" in updated.output and "is a symlink" in updated.output
    assert str(root / "tests" / "golden" / "review") in updated.output
    assert {p.name: p.read_text() for p in away.iterdir()} == before
    assert "Traceback" not in updated.output


def test_a_golden_that_is_a_symlink_is_never_read_through(drifted):
    target = drifted.root.parent / "private.txt"
    target.write_text("PRIVATE-CONTENT-of-another-file\n")
    golden = drifted.golden("review.md", "wave")
    golden.unlink()
    golden.symlink_to(target)
    checked = drifted.build()
    assert checked.returncode != 0
    assert "PRIVATE-CONTENT" not in checked.output
    assert "PRIVATE-CONTENT" not in (drifted.root / REPORT).read_text()
    assert "is a symlink" in checked.output
    updated = drifted.build("update")
    assert updated.returncode != 0 and "REFUSED WRITE" in updated.output
    assert target.read_text() == "PRIVATE-CONTENT-of-another-file\n"
