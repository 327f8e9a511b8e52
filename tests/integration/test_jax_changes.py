"""The generated page of what changed across JAX releases, and its check in the build."""

from __future__ import annotations

import itertools
import re
import shutil

import pytest

from bookexec._internal.errors import BookError
from bookexec._internal.goldens.store import VERSIONS_FILE, parse, read_versions
from conftest import FIXTURE_BOOK, REPO, open_fixture
from jaxbook.jax_changes import (
    NOTES,
    PAGE,
    RECORDS,
    RELEASES,
    compare_block,
    page_problem,
    read_notes,
    render_page,
    write_page,
)

GOLDEN = REPO / "tests" / "golden"
PINNED = read_versions(GOLDEN).version("jax")
# Real outputs of the releases: a scan jaxpr, changed counts, a jaxpr that did not change.
PICKED = [
    "control-flow/scan-jaxpr.txt",
    "primitives/census-count.txt",
    "tracers/scalar-jaxpr.txt",
]


@pytest.fixture
def small_book(tmp_path):
    """A few goldens and their records under each release, copied from the book."""
    folders = [(GOLDEN, "tests/golden")] + [
        (REPO / RECORDS / release, f"{RECORDS}/{release}") for release in RELEASES
    ]
    for base, folder in folders:
        (tmp_path / folder).mkdir(parents=True, exist_ok=True)
        shutil.copy(base / VERSIONS_FILE, tmp_path / folder / VERSIONS_FILE)
        for name in PICKED:
            target = tmp_path / folder / name
            target.parent.mkdir(parents=True, exist_ok=True)
            # A record's hash is of the book's own page; the tests' pages are their own.
            text = (base / name).read_text()
            target.write_text(re.sub(r"^sources: .*\n", "", text, count=1, flags=re.M))
    (tmp_path / "mkdocs.yml").write_text(
        FIXTURE_BOOK + "nav:\n  - Tracers: tracers.md\n  - Control flow: control-flow.md\n"
        '  - "Census": primitives.md\n'
    )
    return tmp_path


def _append(path, line: str) -> None:
    """A line added to the end of a record's output: before its facts, which are not output."""
    output, facts, rest = path.read_text().partition("--- facts ---\n")
    path.write_text(output + line + "\n" + facts + rest)


def body(page: str) -> str:
    """The page after its front matter: what reaches the reader."""
    assert page.startswith("---\n")
    return page.split("\n---\n", 1)[1]


def section(page: str, block_id: str) -> str:
    start = page.index(f"### `{block_id}`")
    end = page.find("\n### ", start + 1)
    return page[start : end if end > 0 else len(page)]


def chain() -> list[str]:
    return [*RELEASES, PINNED]


def text(release: str, name: str) -> str:
    base = GOLDEN if release == PINNED else REPO / RECORDS / release
    return (base / name).read_text()


def test_the_page_follows_each_block_release_by_release(small_book):
    page = render_page(open_fixture(small_book))
    # Front matter first: Material's search leaves the page out, so that a reader's search for
    # a JAX term lands on the chapter that teaches it, not on this report.
    # The note for authors is a key there (`generated`): none of it reaches the reader's page.
    front = (
        "---\ngenerated: by ./book jax-changes from tests/other-jax/ and tests/golden/; do not"
        " edit, the strict build regenerates this page and fails if it differs\n"
        "search:\n  exclude: true\n---\n\n"
    )
    assert page.startswith(front + "# What changed across JAX releases\n")
    assert "<!--" not in page and "Generated" not in body(page)
    steps = [f"{a} → {b}" for a, b in zip(chain(), chain()[1:], strict=False)]
    assert f"| chapter | blocks | same | {' | '.join(steps)} | failed or not compared |" in page
    rows = re.findall(r"^\| \[(.+?)\]\((\S+)\) \|(.*)\|$", page, re.M)
    cells = {title: [int(n) for n in rest.split("|")] for title, _, rest in rows}
    for name, title in zip(PICKED, ["Control flow", "Census", "Tracers"], strict=True):
        changed = [
            compare_block(name, text(a, name), text(b, name), a, b) is not None
            for a, b in zip(chain(), chain()[1:], strict=False)
        ]
        assert cells[title] == [1, 0 if any(changed) else 1, *map(int, changed), 0]
        block = name.split("/")[1].removesuffix(".txt")
        if any(changed):
            found = section(page, block)
            for (a, b), did in zip(zip(chain(), chain()[1:], strict=False), changed, strict=True):
                assert (f"**JAX {a} → {b}:" in found) is did
        else:
            assert f"### `{block}`" not in page  # the same under every release: not listed


def test_changed_counts_are_shown_by_the_lines_that_print_them(small_book):
    """Review 6, jax-changes item 2: a moved count is shown as the printed lines that changed,
    never by the name the book's snippet gives it (`total`), which no page shows."""
    page = render_page(open_fixture(small_book))
    census = section(page, "census-count")
    totals = [
        re.search(r"^after import jax: (\d+) primitives$", text(r, PICKED[1]), re.M)[1]
        for r in chain()
    ]
    assert len(set(totals)) > 1  # the records moved: else this test shows nothing
    for x, y in itertools.pairwise(totals):
        if x != y:
            assert f"\n-after import jax: {x} primitives\n" in census
            assert f"\n+after import jax: {y} primitives\n" in census
    for name in ("`total`", "`half`", "`n_subclasses`", "| value |"):
        assert name not in page


def test_a_value_no_printed_line_shows_is_given_as_a_value(small_book):
    """A fact whose block printed the same under both releases is said by its values."""
    for folder, value in ((f"{RECORDS}/{RELEASES[0]}", "12"), (f"{RECORDS}/{RELEASES[1]}", "10")):
        path = small_book / folder / PICKED[2]
        path.write_text(
            path.read_text().replace("--- facts ---\n", f"--- facts ---\nn = {value}\n")
        )
    page = render_page(open_fixture(small_book))
    assert "(values the chapter quotes: 12 → 10)" in summary(page)
    assert (
        f"- a value the chapter quotes: 12 under JAX {RELEASES[0]}, 10 under JAX {RELEASES[1]}"
        in section(page, "scalar-jaxpr")
    )
    assert "`n`" not in page


def test_a_block_that_fails_under_a_release_is_listed_with_its_error(small_book):
    record = small_book / RECORDS / RELEASES[0] / "tracers" / "scalar-jaxpr.txt"
    head, _, _ = record.read_text().partition("---\n")
    # A record as `run_book` writes one for a block that raised (the header names the result).
    error = "raised builtins.ValueError (line 2 of snippets/tracers/x.py):\nValueError: x\n"
    record.write_text(head.replace("result: ok", "result: failed") + "---\nboom\n" + error)
    page = render_page(open_fixture(small_book))
    failed = section(page, "scalar-jaxpr")
    assert f"**JAX {RELEASES[0]} → {RELEASES[1]}: fails**" in failed
    assert f"fails under JAX {RELEASES[0]}" in failed and "ValueError: x" in failed
    # In a reader's words: no `builtins.`, no line of the book's own snippet file.
    assert "boom\nraised ValueError:\nValueError: x\n" in failed
    assert parse(record.read_text()).header_fields()["result"] == "failed"


def test_a_block_without_a_record_is_listed_not_dropped(small_book):
    (small_book / RECORDS / RELEASES[-1] / "tracers/scalar-jaxpr.txt").unlink()
    page = render_page(open_fixture(small_book))
    # One line in its chapter's section, not an entry of its own that says nothing more.
    assert "### `scalar-jaxpr`" not in page
    assert f"Not compared (not recorded under JAX {RELEASES[-1]} yet): `scalar-jaxpr`." in page
    assert "./book" not in body(page)  # a reader is never told to run a command
    # Counted once, as not compared: not also as changed in each step it could not be compared.
    steps = " | ".join("0" for _ in RELEASES)
    assert f"| [Tracers](tracers.md) | 1 | 0 | {steps} | 1 |" in page


def test_the_page_must_match_its_inputs(small_book):
    (small_book / "docs").mkdir(exist_ok=True)
    assert write_page(open_fixture(small_book)) is True
    assert page_problem(open_fixture(small_book)) is None
    assert write_page(open_fixture(small_book)) is False
    golden = small_book / "tests/golden/tracers/scalar-jaxpr.txt"
    golden.write_text(golden.read_text().replace("tanh", "sinh"))
    assert "does not match the goldens" in page_problem(open_fixture(small_book))


def test_the_page_opens_with_a_link_to_jax_s_own_changelog(small_book):
    """The book's records cover only its own blocks; JAX's changelog lists every change."""
    opening = render_page(open_fixture(small_book)).split("\n## ", 1)[0]
    assert "(https://docs.jax.dev/en/latest/changelog.html)" in opening


def test_the_committed_page_matches_the_committed_records_and_goldens():
    assert page_problem(open_fixture(REPO)) is None
    page = (REPO / "docs" / PAGE).read_text()
    goldens = len(list(GOLDEN.glob("*/*.txt")))  # the chapters' goldens; labs are one level deeper
    rows = re.findall(r"^\| \[.+?\]\(\S+\) \| (\d+) \|", page, re.M)
    assert sum(map(int, rows)) == goldens  # every block is counted
    for release in RELEASES:  # every block has a record under every release
        records = len(list((REPO / RECORDS / release).glob("*/*.txt")))
        assert records == goldens, release
        assert read_versions(REPO / RECORDS / release).version("jax") == release


@pytest.mark.build
def test_the_strict_build_fails_on_a_stale_page_and_update_rewrites_it(site):
    site.page(
        "drift.md",
        '# Drift\n\n```python exec="on" id="wave"\n--8<-- "snippets/drift/wave.py"\n```\n',
    )
    site.snippet("drift/wave.py", "import jax\nprint(jax.make_jaxpr(lambda x: x * 2.0)(1.0))\n")
    assert site.build("update").returncode == 0
    for release in RELEASES:
        record = site.root / RECORDS / release / "drift" / "wave.txt"
        record.parent.mkdir(parents=True)
        shutil.copy(site.golden("drift.md", "wave"), record)
        shutil.copy(site.root / "tests/golden" / VERSIONS_FILE, record.parent.parent)
    assert write_page(open_fixture(site.root))
    assert site.build().returncode == 0

    page = site.root / "docs" / PAGE
    page.write_text(page.read_text() + "edited by hand\n")
    stale = site.build()
    assert stale.returncode != 0
    assert "docs/jax-changes.md does not match the goldens" in stale.output
    assert "./book jax-changes --page-only" in stale.output

    assert site.build("update").returncode == 0
    assert "edited by hand" not in page.read_text()
    assert site.build().returncode == 0


def test_records_are_written_only_inside_tests_other_jax(tmp_path):
    """`./book jax-changes` refuses a record folder that is a symlink, naming it."""
    import os
    import sys

    from bookexec._internal.errors import BookError
    from jaxbook.jax_changes import run_book

    root = tmp_path / "book"
    (root / "docs").mkdir(parents=True)
    (root / "snippets" / "p").mkdir(parents=True)
    (root / "docs" / "p.md").write_text(
        '# P\n\n```python exec="on" id="b"\n--8<-- "snippets/p/b.py"\n```\n'
    )
    (root / "snippets" / "p" / "b.py").write_text("print('b')\n")
    away = tmp_path / "away"
    away.mkdir()
    (root / RECORDS).mkdir(parents=True)
    (root / RECORDS / PINNED).symlink_to(away)  # the folder of the running JAX's records
    with pytest.raises(BookError, match=r"refused: .*other-jax/[\d.]+ is a symlink"):
        run_book(open_fixture(root, environ=os.environ), sys.executable, say=lambda _: None)
    assert list(away.iterdir()) == []


def summary(page: str) -> str:
    start = page.index("## What changed that matters")
    return page[start : page.index("\n## ", start + 1)]


def test_the_summary_says_what_changed_in_sentences_made_from_the_records(small_book):
    said = summary(render_page(open_fixture(small_book)))
    for (a, b), step in zip(
        itertools.pairwise(chain()), ["### From JAX", "### From JAX"], strict=True
    ):
        assert f"{step} {a} to JAX {b}" in said
    scan = compare_block(
        "scan-jaxpr", text(RELEASES[0], PICKED[0]), text(RELEASES[1], PICKED[0]), *RELEASES
    )
    if scan is not None and scan.kind == "structural":  # a jaxpr that changed shape, in words
        assert "**Jaxprs that changed shape.**" in said
        assert (
            "[`scan-jaxpr`](#changes-control-flow-scan-jaxpr) in Control flow "
            f"({'; '.join(scan.changes[:5])})" in said
        )
    # A count is quoted from the records' printed lines, so a record that says otherwise
    # changes the sentence.
    record = small_book / RECORDS / RELEASES[0] / PICKED[1]
    old = re.sub(
        r"^after import jax: \d+", "after import jax: 4242", record.read_text(), flags=re.M
    )
    record.write_text(old)
    moved = summary(render_page(open_fixture(small_book)))
    assert "**Counts and lists that moved.**" in moved
    assert "(`after import jax: 4242 primitives` → `after import jax: " in moved


def test_the_summary_names_a_reworded_error(small_book):
    (small_book / "docs").mkdir(exist_ok=True)
    (small_book / "snippets/tracers").mkdir(parents=True)
    (small_book / "snippets/tracers/boom.py").write_text("raise ValueError('x')\n")
    (small_book / "docs/tracers.md").write_text(
        '# T\n\n```python exec="on" id="scalar-jaxpr" raises="ValueError"\n'
        '--8<-- "snippets/tracers/boom.py"\n```\n'
    )
    assert "**Errors reworded.**" not in summary(render_page(open_fixture(small_book)))
    # The block's error, its last line, under the last older release and under the pin.
    record = small_book / RECORDS / RELEASES[-1] / PICKED[2]
    _append(record, "ValueError: x")
    golden = small_book / "tests/golden" / PICKED[2]
    _append(golden, "ValueError: x, in more words")
    said = summary(render_page(open_fixture(small_book)))
    assert "**Errors reworded.**" in said
    assert "[`scalar-jaxpr`](#changes-tracers-scalar-jaxpr) in Tracers" in said


def test_a_list_that_moved_is_summarised_as_what_it_gained_and_lost(small_book):
    # A block whose printed lines stayed the same: the list itself is what the page says.
    for release, kinds in ((RELEASES[0], "add, mul, sin"), (RELEASES[1], "add, cos, mul")):
        record = small_book / RECORDS / release / PICKED[2]
        facts = f"--- facts ---\nkinds = {kinds}\n"
        record.write_text(record.read_text().replace("--- facts ---\n", facts))
    said = summary(render_page(open_fixture(small_book)))
    assert "(values the chapter quotes: gained cos; lost sin)" in said
    assert "add, mul, sin →" not in said


def _last_step(small_book, old_line: str, new_line: str) -> str:
    """The summary of the last step after one line is added under each of its two releases."""
    for folder, line in ((f"{RECORDS}/{RELEASES[-1]}", old_line), ("tests/golden", new_line)):
        path = small_book / folder / PICKED[2]
        _append(path, line)
    said = summary(render_page(open_fixture(small_book)))
    return said[said.index(f"### From JAX {RELEASES[-1]} to") :]


def test_a_moved_docs_link_is_said_to_be_only_that(small_book):
    latest = "https://docs.jax.dev/en/latest/"
    said = _last_step(small_book, f"See {latest}errors.html#x", f"See {latest}101/errors.html#x")
    assert "**Links into JAX's documentation moved.**" in said
    # Review 6, jax-changes item 3: said once, as the page that moved and the blocks linking
    # it, each linked in its chapter; no entry of its own repeats it further down.
    assert (
        "`errors.html` → `101/errors.html` ([`scalar-jaxpr`](tracers.md#block-scalar-jaxpr))"
        in (said)
    )
    # (the line added under the older release is a change of the step before: that one stays)
    entry = section(render_page(open_fixture(small_book)), "scalar-jaxpr")
    assert f"**JAX {RELEASES[-1]} → " not in entry
    assert f"**JAX {RELEASES[0]} → {RELEASES[1]}:" in entry
    assert (
        "**Other printed text.**" not in said
        or "`scalar-jaxpr`" not in said.split("**Other printed text.**")[1]
    )


def test_other_words_are_quoted_from_the_records(small_book):
    said = _last_step(small_book, "This BatchTracer was made", "This VmapTracer was made")
    assert "**Other printed text.**" in said
    assert "(`This BatchTracer was made` → `This VmapTracer was made`)" in said
    assert "**Links into JAX's documentation moved.**" not in said


def test_floats_that_differ_in_their_last_digits_are_rounding(small_book):
    said = _last_step(small_book, "grad: [1.0155123  2.5]", "grad: [1.0155122   2.5]")
    assert "**Rounding.**" in said
    assert "(`grad: [1.0155123  2.5]` → `grad: [1.0155122   2.5]`)" in said
    # the block's own section files it the same way, not as "the output changed"
    section = render_page(open_fixture(small_book)).split("**Rounding.**")[-1]
    assert "- only the last digits of printed floats changed (rounding)\n" in section


def test_floats_that_really_moved_are_not_rounding(small_book):
    said = _last_step(small_book, "grad: [1.0155123 2.5]", "grad: [1.0255123 2.5]")
    assert "**Rounding.**" not in said
    assert "(`grad: [1.0155123 2.5]` → `grad: [1.0255123 2.5]`)" in said


def test_a_step_with_no_new_program_says_so(small_book):
    said = _last_step(small_book, "a", "b")
    if "**Jaxprs that changed shape.**" not in said:
        assert f"**Jaxprs.** No jaxpr changed shape under JAX {PINNED}." in said


def test_a_record_made_before_its_code_changed_is_not_compared(small_book):
    from bookexec._internal.discover.blocks import scan_page
    from jaxbook.jax_changes import session_hash

    (small_book / "docs").mkdir(exist_ok=True)
    (small_book / "snippets/tracers").mkdir(parents=True)
    (small_book / "snippets/tracers/scalar_jaxpr.py").write_text("print(1)\n")
    include = '--8<-- "snippets/tracers/scalar_jaxpr.py"'
    page = f'# T\n\n```python exec="on" id="scalar-jaxpr"\n{include}\n```\n'
    (small_book / "docs/tracers.md").write_text(page)
    [block] = scan_page("tracers.md", page, small_book)
    record = small_book / RECORDS / RELEASES[-1] / PICKED[2]
    made = record.read_text()

    def with_sources(value: str) -> None:
        record.write_text(made.replace("\nresult: ", f"\nsources: {value}\nresult: ", 1))

    with_sources(session_hash([block], block))
    assert "was made before the chapter's code last changed" not in render_page(
        open_fixture(small_book)
    )
    (small_book / "snippets/tracers/scalar_jaxpr.py").write_text("print(2)\n")
    said = render_page(open_fixture(small_book))
    assert "**Not compared.**" in summary(said)
    assert (
        f"the run under JAX {RELEASES[-1]} was made before the chapter's code last changed" in said
    )
    assert "./book" not in said.partition("-->")[2]


def test_a_primitive_new_to_the_book_is_named_with_its_blocks(small_book):
    record = small_book / RECORDS / RELEASES[-1] / PICKED[2]
    golden = small_book / "tests/golden" / PICKED[2]
    assert "tanh" in record.read_text()
    golden.write_text(golden.read_text().replace("tanh", "logistic"))
    for folder, line in (
        (f"{RECORDS}/{RELEASES[-1]}", "saved: tanh"),
        ("tests/golden", "saved: logistic"),
    ):
        other = small_book / folder / PICKED[0]
        _append(other, line)
    said = _last_step(small_book, "", "")
    assert "its name is also printed by [`scan-jaxpr`](#changes-control-flow-scan-jaxpr)" in said
    assert (
        "**Primitives.** Across every jaxpr the book prints, from JAX "
        f"{RELEASES[-1]} to JAX {PINNED}: `logistic` appears (in "
        "[`scalar-jaxpr`](#changes-tracers-scalar-jaxpr); its name is also printed by "
        "[`scan-jaxpr`](#changes-control-flow-scan-jaxpr))"
    ) in said
    assert "`tanh` no longer appears (it was in [`scalar-jaxpr`]" in said
    assert "an equation's tanh replaced by logistic" in said


def test_the_real_summary_says_each_change_of_shape_once_and_only_those():
    said = summary(render_page(open_fixture(REPO)))
    shapes = next(line for line in said.splitlines() if "**Jaxprs that changed shape.**" in line)
    assert "jaxpr 1 of" not in shapes and "(data flow)" not in shapes
    assert "the text around" not in shapes
    assert not re.search(r"replaced by (\S+); \1: \d+ inputs", shapes)  # said with it
    for entry in re.findall(r"\]\(#changes-[^)]+\) in [^(]+\(([^)]*)\)", shapes):
        words = entry.split("; ")
        assert len(words) == len(set(words)), entry


def test_one_equation_gone_is_not_said_to_be_the_primitive_gone(small_book):
    golden = small_book / "tests/golden" / PICKED[2]
    text = golden.read_text()
    golden.write_text(
        text.replace("    d:f32[] = mul 0.5:f32[] c\n", "", 1).replace("add d", "add c")
    )
    said = _last_step(small_book, "", "")
    assert "one mul equation removed" in said
    assert "primitive removed: mul" not in said


# Each kind of block the records hold: its fence options, its code, and its record's body.
RECORDED = {
    "a": ("", "v = 5\nprint('a', v)\n", "ok", "a 5\n"),
    "b": (' raises="ValueError"', "raise ValueError('no')\n", "ok", "ValueError: no\n"),
    "c": (
        "",
        "x = 1\nraise KeyError('k')\n",
        "failed",
        "raised builtins.KeyError (line 2 of snippets/p/c.py):\nKeyError: 'k'\n",
    ),
    # In a new interpreter, without the session's preloaded JAX.
    "d": (' fresh="true"', "import sys\nprint('jax' in sys.modules)\n", "ok", "False\n"),
    "e": ("", "import sys\nprint(v, 'jax' in sys.modules)\n", "ok", "5 True\n"),
    "f": (
        "",
        "import os\nprint('going')\nos._exit(3)\n",
        "failed",
        "worker died while running the block (exit code 3); the snippet must not end its own "
        "process (os._exit, os.kill, a crash in native code): raise an exception instead\n",
    ),
    "g": ("", "print('new session', 'v' in globals())\n", "ok", "new session False\n"),
    "h": (' limit="100"', "print('x' * 1000)\n", "failed", "the output flooded past its limit\n"),
    # The environment the command line hands over sets the limits (BOOK_BLOCK_TIMEOUT below).
    "i": ("", "import time\ntime.sleep(30)\n", "failed", "timed out"),
}


def test_records_are_made_by_the_executor_s_page_run(tmp_path):
    """`./book jax-changes` runs each page as a build does (one session, fresh blocks alone, a
    new session after a dead worker, the fence's limits) and records each block's result."""
    import os
    import sys

    from jaxbook.jax_changes import run_book

    root = tmp_path / "book"
    (root / "docs").mkdir(parents=True)
    (root / "snippets" / "p").mkdir(parents=True)
    page = "# P\n\n"
    for name, (options, code, _, _) in RECORDED.items():
        page += f'```python exec="on" id="{name}"{options}\n--8<-- "snippets/p/{name}.py"\n```\n\n'
        (root / "snippets" / "p" / f"{name}.py").write_text(code)
    (root / "docs" / "p.md").write_text(page)
    said: list[str] = []
    environ = {**os.environ, "BOOK_BLOCK_TIMEOUT": "3"}
    out = run_book(open_fixture(root, environ=environ), sys.executable, say=said.append)
    assert said == [f"jax-changes: p.md: {len(RECORDED)} blocks under JAX {PINNED}"]
    assert read_versions(out).version("jax") == PINNED
    for name, (_, _, result, body) in RECORDED.items():
        record = parse((out / "p" / f"{name}.txt").read_text())
        fields = record.header_fields()
        assert (fields["result"], fields["block"]) == (result, f"docs/p.md#{name}"), name
        if name == "i":
            assert "timed out after 3" in record.output, record.output
        else:
            assert record.output == body, name


# A book of its own, read as a build reads it: its docs_dir is `pages/`, its fences are
# markdown-exec's (whose `session` a page may name), and its drafts are left out of the site.
SCRATCH_CONFIG = """\
site_name: scratch
docs_dir: pages
exclude_docs: drafts/
plugins:
  - executed-book:
      fences: markdown-exec
markdown_extensions:
  - pymdownx.superfences
"""


def _scratch_book(tmp_path, pages: dict[str, str]):
    root = tmp_path / "book"
    (root / "pages").mkdir(parents=True)
    (root / "mkdocs.yml").write_text(SCRATCH_CONFIG)
    for name, text in pages.items():
        (root / "pages" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "pages" / name).write_text(f"# {name}\n\n{text}")
    return root


def _fence(block_id: str, code: str, options: str = "") -> str:
    return f'```python exec="on" id="{block_id}"{options}\n{code}\n```\n'


def test_jax_changes_runs_the_pages_a_build_collects(tmp_path):
    """`./book jax-changes` runs the pages MkDocs collects for a build (its docs_dir's, less
    what `exclude_docs` leaves out), in the plan's order, through the build's stages."""
    import os
    import sys

    from jaxbook.jax_changes import run_book

    root = _scratch_book(
        tmp_path,
        {
            "a.md": _fence("one", "print('a')"),
            "guide/b.md": _fence("two", "print('b')"),
            "drafts/d.md": _fence("three", "print('d')"),
        },
    )
    said: list[str] = []
    out = run_book(open_fixture(root, environ=os.environ), sys.executable, say=said.append)
    assert said == [
        f"jax-changes: a.md: 1 blocks under JAX {PINNED}",
        f"jax-changes: guide/b.md: 1 blocks under JAX {PINNED}",
    ]
    record = parse((out / "a" / "one.txt").read_text())
    assert (record.header_fields()["block"], record.output) == ("pages/a.md#one", "a\n")
    assert parse((out / "guide" / "b" / "two.txt").read_text()).output == "b\n"
    assert not (out / "drafts").exists()  # not a page of the build: not run


def test_a_session_named_on_two_pages_fails_jax_changes_before_any_block_runs(tmp_path):
    """The plan stage checks the whole book before the run stage starts a page: a session that
    two pages name is the build's error, and nothing is run or recorded."""
    import os
    import sys

    from jaxbook.jax_changes import run_book

    shared = _fence("s", "print(1)", ' session="shared"')
    root = _scratch_book(tmp_path, {"a.md": shared, "b.md": shared})
    said: list[str] = []
    with pytest.raises(
        BookError, match=r'pages/b\.md:3 .*session="shared" is also used on pages/a\.md:3'
    ):
        run_book(open_fixture(root, environ=os.environ), sys.executable, say=said.append)
    assert said == []
    assert not (root / RECORDS).exists()


NOTE = """
[[note]]
between = ["{old}", "{new}"]
blocks = ["{block}"]
title = "What it means"
text = "Code that reads this must change."
"""


def test_the_notes_lead_the_page_and_link_the_blocks_that_show_them(small_book):
    old, new = RELEASES[0], RELEASES[1]
    (small_book / NOTES).write_text(NOTE.format(old=old, new=new, block="control-flow/scan-jaxpr"))
    page = render_page(open_fixture(small_book))
    lead = page.index("## What may break your code")
    assert lead < page.index("## What changed that matters") < page.index("| chapter | blocks |")
    assert (
        f"- **What it means** (JAX {old} → {new}; "
        "[`scan-jaxpr`](#changes-control-flow-scan-jaxpr)). Code that reads this must change."
    ) in page
    assert "{#changes-control-flow-scan-jaxpr}" in page  # the link has its target


def test_a_note_whose_block_did_not_change_stops_the_page(small_book):
    old, new = RELEASES[0], RELEASES[1]
    (small_book / NOTES).write_text(NOTE.format(old=old, new=new, block="tracers/scalar-jaxpr"))
    with pytest.raises(BookError) as refused:
        render_page(open_fixture(small_book))
    assert str(refused.value) == (
        f"{NOTES}, note 1 (What it means): tracers/scalar-jaxpr printed the same under both, "
        f"so it does not show this change from JAX {old} to {new}"
    )
    (small_book / NOTES).write_text(NOTE.format(old=old, new="9.9", block="tracers/scalar-jaxpr"))
    # Releases the page does not follow (goldens written under another JAX): left out.
    assert "What may break your code" not in render_page(open_fixture(small_book))
    (small_book / NOTES).write_text(NOTE.format(old=old, new=new, block="control-flow/scan-jaxpr"))
    (small_book / RECORDS / new / "control-flow" / "scan-jaxpr.txt").unlink()
    # Not compared (no record): the note stands until the block is recorded and compared again.
    assert "- **What it means** (JAX" in render_page(open_fixture(small_book))
    (small_book / NOTES).write_text('[[note]]\nbetween = "x"\n')
    with pytest.raises(BookError, match="note 1: `between` is two JAX versions"):
        render_page(open_fixture(small_book))


def test_the_books_notes_each_show_a_change():
    notes = read_notes(open_fixture(REPO))
    assert notes, f"{NOTES} holds the page's lead"
    page = (REPO / "docs" / PAGE).read_text(encoding="utf-8")
    for note in notes:
        assert f"- **{note.title}** (JAX {note.old} → {note.new};" in page


def test_every_link_within_the_committed_page_has_its_anchor():
    """A block listed on one line (not compared under any pair of releases) has no entry of
    its own: the summary and the notes link its chapter's section instead."""
    page = (REPO / "docs" / PAGE).read_text()
    anchors = set(re.findall(r"\{#([\w.-]+)\}", page))
    links = set(re.findall(r"\]\(#([\w.-]+)\)", page))
    assert links and links <= anchors, sorted(links - anchors)
