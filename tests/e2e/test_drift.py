"""Drift detection on a small fixture site, built by the real strict MkDocs build."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.build

PAGE = """\
# Drift

```python exec="on" id="jaxpr"
--8<-- "snippets/drift/jaxpr.py"
```

```python exec="on" id="count"
--8<-- "snippets/drift/count.py"
```
"""

JAXPR = """\
import jax
import jax.numpy as jnp

print(jax.make_jaxpr(lambda x: jnp.sin(x) * 2.0)(1.0))
"""

COUNT = """\
print("equations:", len(jax.make_jaxpr(lambda x: x + 1)(1.0).jaxpr.eqns))
"""


def summary_line(output: str) -> str:
    """The one-line summary, which must come after every per-block report."""
    lines = output.splitlines()
    last = max(i for i, line in enumerate(lines) if "golden check:" in line)
    assert not any(tag in line for line in lines[last:] for tag in ("DRIFTED:", "NEW:", "STALE:"))
    return lines[last]


def written_book(site):
    site.page("drift.md", PAGE)
    site.snippet("drift/jaxpr.py", JAXPR)
    site.snippet("drift/count.py", COUNT)
    written = site.build("update")
    assert written.returncode == 0, written.output


@pytest.fixture
def book(prebuilt, tmp_path):
    return prebuilt(written_book, tmp_path)


def test_update_writes_goldens_that_then_pass(book):
    goldens = book.goldens()
    assert sorted(goldens) == ["drift/count.txt", "drift/jaxpr.txt"]
    assert "sin" in goldens["drift/jaxpr.txt"]
    assert "jax: " not in goldens["drift/jaxpr.txt"]  # versions live in one file
    assert "written-by: ./book update" in goldens["drift/jaxpr.txt"]  # the fixture's launcher
    versions = (book.root / "tests" / "golden" / "VERSIONS").read_text()
    assert "jax: " in versions and "backend: cpu" in versions
    checked = book.build()
    assert checked.returncode == 0, checked.output
    assert "2 blocks checked, 0 failed, 0 drifted, 0 new, 0 stale" in checked.output


def test_one_changed_character_fails_with_a_diff_naming_the_block(book):
    path = book.golden("drift.md", "jaxpr")
    original = path.read_bytes()
    path.write_text(path.read_text().replace("sin", "cos", 1))

    drifted = book.build()
    assert drifted.returncode != 0
    out = drifted.output
    head = (
        "DRIFTED (structural): page docs/drift.md, block 'jaxpr', snippet snippets/drift/jaxpr.py"
    )
    assert head in out
    assert "golden tests/golden/drift/jaxpr.txt" in out
    assert re.search(r"^-.*cos", out, re.M) and re.search(r"^\+.*sin", out, re.M)
    assert "structural: primitive renamed: cos -> sin" in out, out
    assert "drift by class: 1 structural" in out
    assert summary_line(out).endswith("2 blocks checked, 0 failed, 1 drifted, 0 new, 0 stale")

    restored = book.build("update")
    assert restored.returncode == 0, restored.output
    assert "rewrote tests/golden/drift/jaxpr.txt" in restored.output
    # The golden as the update first wrote it, which a check passes (the test above).
    assert path.read_bytes() == original


def test_re_lettered_jaxpr_is_cosmetic_drift_and_still_fails(book):
    path = book.golden("drift.md", "jaxpr")
    text = path.read_text()
    body = text.split("\n---\n", 1)[1]
    relettered = re.sub(r"\b([a-c])\b(?=:| |\)|,|;|\n)", lambda m: chr(ord(m[1]) + 20), body)
    assert relettered != body
    path.write_text(text.replace(body, relettered))

    drifted = book.build()
    assert drifted.returncode != 0
    out = drifted.output
    line = next(ln for ln in out.splitlines() if "DRIFTED (cosmetic)" in ln)
    assert "DRIFTED (cosmetic): page docs/drift.md, block 'jaxpr'" in line
    assert "block 'jaxpr', snippet snippets/drift/jaxpr.py: the same program: only variable" in line
    assert "@@" not in out  # one line a block, no diff
    assert out.index("DRIFTED (cosmetic)") < out.index("1 cosmetic (only re-lettering")


def test_a_header_edit_is_drift_too(book):
    path = book.golden("drift.md", "count")
    path.write_text(path.read_text().replace("snippet: ", "snippet: x", 1))
    assert book.build().returncode != 0


def test_missing_golden_fails_in_check_and_is_written_in_update(book):
    path = book.golden("drift.md", "count")
    original = path.read_bytes()
    path.unlink()

    missing = book.build()
    assert missing.returncode != 0
    assert "NEW: page docs/drift.md, block 'count'" in missing.output
    assert summary_line(missing.output).endswith("0 failed, 0 drifted, 1 new, 0 stale")

    assert book.build("update").returncode == 0
    assert path.read_bytes() == original


def test_golden_without_a_block_is_stale(book):
    book.page("drift.md", PAGE.split('```python exec="on" id="count"')[0])
    stale = book.build()
    assert stale.returncode != 0
    assert "STALE: golden tests/golden/drift/count.txt" in stale.output
    assert summary_line(stale.output).endswith("0 failed, 0 drifted, 0 new, 1 stale")

    cleaned = book.build("update")
    assert cleaned.returncode == 0, cleaned.output
    assert "deleted stale tests/golden/drift/count.txt" in cleaned.output
    assert sorted(book.goldens()) == ["drift/jaxpr.txt"]
    assert book.build().returncode == 0


def test_report_says_first_when_jax_version_differs(book):
    from bookexec._internal.goldens.store import Provenance, read_versions, write_versions

    golden_dir = book.root / "tests" / "golden"
    running = read_versions(golden_dir)
    old = {"jax": "0.11.0", "jaxlib": "0.11.0", "python": running.version("python")}
    write_versions(golden_dir, Provenance.of(old, running.backend))
    path = book.golden("drift.md", "jaxpr")
    path.write_text(path.read_text().replace("sin", "cos", 1))

    out = book.build().output
    note = "goldens written under jax 0.11.0 (jaxlib 0.11.0, "
    note += f"Python {running.version('python')}, cpu); running jax {running.version('jax')}"
    assert note in out
    assert "1 blocks unchanged, 1 changed" in out
    assert out.index(note) < out.index("DRIFTED (structural)")
    assert out.count("goldens written under") == 1


def test_unknown_mode_is_an_error(book):
    result = book.build("overwrite")
    assert result.returncode != 0
    assert "GOLDEN='overwrite' is not a mode" in result.output


def test_update_leaves_no_temporary_files(book):
    path = book.golden("drift.md", "jaxpr")
    path.write_text("stale text\n")
    assert book.build("update").returncode == 0
    leftovers = [p.name for p in path.parent.iterdir() if p.name.startswith(".")]
    assert leftovers == []


def test_a_golden_jaxpr_the_parser_cannot_read_falls_back_to_a_text_diff(book):
    """A newer JAX may print a form the parser does not know: the report says where, as text."""
    path = book.golden("drift.md", "jaxpr")
    original = path.read_text()
    assert "sin a" in original
    path.write_text(original.replace("sin a", "sin a %% a new form", 1))
    drifted = book.build()
    assert drifted.returncode != 0
    out = drifted.output
    assert "Traceback" not in out
    assert "DRIFTED (text): page docs/drift.md, block 'jaxpr'" in out, out
    assert re.search(r"unreadable jaxpr in the golden: line \d+, column \d+: expected", out), out
    assert "(cosmetic)" not in out
    assert re.search(r"^-.*sin a %% a new form", out, re.M), out  # the text diff
    assert re.search(r"^\+.*sin a;", out, re.M), out
