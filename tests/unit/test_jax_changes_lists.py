"""The "Counts and lists that moved" bullet of docs/jax-changes.md says what a JSON-valued fact
gained and lost by its items' text, read from the book's real records (no build, no worker)."""

from __future__ import annotations

import re
import shutil

from bookexec._internal.goldens.store import VERSIONS_FILE
from conftest import REPO, open_fixture
from jaxbook.jax_changes import RECORDS, RELEASES, render_page

GOLDEN = REPO / "tests" / "golden"
# A block whose `scanned` fact (a stepper's JSON) gained and lost scan parameters in 0.11.2.
NAME = "control-flow/loop-steps.txt"


def _book(tmp_path):
    """A book of the one block, its golden and its two real older records."""
    for base, folder in [(GOLDEN, "tests/golden")] + [
        (REPO / RECORDS / release, f"{RECORDS}/{release}") for release in RELEASES
    ]:
        target = tmp_path / folder / NAME
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(base / VERSIONS_FILE, tmp_path / folder / VERSIONS_FILE)
        text = re.sub(r"^sources: .*\n", "", (base / NAME).read_text(), count=1, flags=re.M)
        target.write_text(text)
    (tmp_path / "snippets/control-flow").mkdir(parents=True)
    (tmp_path / "snippets/control-flow/loop_steps.py").write_text("print(1)\n")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs/control-flow.md").write_text(
        '# C\n\n```python exec="on" id="loop-steps"\n'
        '--8<-- "snippets/control-flow/loop_steps.py"\n```\n'
    )
    return open_fixture(tmp_path, "nav:\n  - Control flow: control-flow.md\n")


def _moved_bullet(page: str) -> str:
    start = page.index(f"### From JAX {RELEASES[0]} to JAX {RELEASES[1]}")
    step = page[start : page.index("\n### ", start + 1)]
    return next(line for line in step.splitlines() if "**Counts and lists that moved.**" in line)


def test_a_json_fact_that_moved_is_said_by_the_items_it_gained_and_lost(tmp_path):
    said = _moved_bullet(render_page(_book(tmp_path)))
    assert '"text"' not in said and "}" not in said.split("(the program it steps through")[1]
    assert "`scanned`" not in said  # the snippet's name for the fact, which no page shows
    assert (
        "(the program it steps through gained ft_in=((None,), (None,), ()), "
        "ft_out=((None,), ()); lost num_carry=1, num_consts=1)"
    ) in said


def test_a_record_written_before_line_ends_were_kept_is_compared_with_them_trimmed():
    """Issue 53: goldens now keep trailing spaces and final blank lines; a record of an older
    release written before that (no `line-ends: kept`) cannot say what they were, so only it
    is compared with them trimmed on both sides: no JAX change appears from it. A record
    written since compares them exactly."""
    from bookexec._internal.goldens.store import encode_output, render
    from jaxbook.jax_changes import compare_block

    def record(output: str, **fields: str) -> str:
        return render("p.md", "b", "snippets/p.py", encode_output(output), "w", **fields)

    golden = record("iota[dimension=0] \nend\n\n")
    assert compare_block("b", record("iota[dimension=0]\nend\n"), golden, "0.11", "0.12") is None
    changed = compare_block(
        "b", record("iota[dimension=0]\nend\n"), record("iota\nend\n"), "a", "b"
    )
    assert changed is not None
    kept = record("iota[dimension=0]\nend\n", **{"line-ends": "kept"})
    assert compare_block("b", kept, golden, "0.11", "0.12") is not None


def test_a_json_fact_that_moved_is_shown_as_the_lines_it_steps_through(tmp_path):
    """Review 5, jax-changes item 4: the block's entry shows the scan's params that came and
    went as a diff of the program's lines, never the step-through view's JSON record."""
    page = render_page(_book(tmp_path))
    start = page.index("### `loop-steps`")
    entry = page[start : page.find("\n## ", start)]
    assert '{"args"' not in entry and '"text"' not in entry
    assert "+      ft_in=((None,), (None,), ())\n" in entry
    assert "-      num_carry=1\n" in entry


def test_a_record_naming_a_snippet_by_its_path_matches_a_golden_naming_the_file():
    """Review 5, jax-changes item 3: records made before the goldens named a page's snippets
    by their file alone print `snippets/<chapter>/x.py`; compared as the goldens are
    normalised (`snippet_names`), that is no change of JAX's. Another path still is."""
    from bookexec._internal.goldens.store import encode_output, render
    from jaxbook.jax_changes import compare_block

    def record(output: str) -> str:
        fields = {"line-ends": "kept"}
        return render("d.md", "b", "snippets/d/b.py", encode_output(output), "w", **fields)

    page = ["snippets/d/b.py", "snippets/d/res.py"]
    old = record("f32[3] output of cos from snippets/d/res.py:6:19 (block)\n")
    new = record("f32[3] output of cos from res.py:6:19 (block)\n")
    assert compare_block("b", old, new, "0.11", "0.12", page) is None
    moved = record("f32[3] output of cos from res.py:7:19 (block)\n")
    assert compare_block("b", old, moved, "0.11", "0.12", page) is not None
    other = record("f32[3] output of cos from snippets/e/res.py:6:19 (block)\n")
    assert compare_block("b", other, new, "0.11", "0.12", page) is not None


def test_the_book_s_page_lists_no_path_shortening_as_a_jax_change():
    """The committed records predate the shortening; the page made from them shows none."""
    from jaxbook.jax_changes import PAGE

    assert "snippets/" not in (REPO / "docs" / PAGE).read_text()
