"""The golden format is unambiguous, stays text to git, and its reports are terminal-safe
(issue 38, points 3, 5 and 9), on a fixture book built by real MkDocs with the plain runtime.

Each block prints lines that imitate the golden's own structure (its header lines, its `---`
separator, its facts section and the lines of that section, an escaped line) or bytes a
terminal or git would read as something else (NUL, ESC sequences, OSC, BEL, a bidirectional
override). The update writes their goldens, a check passes, then every snippet changes one
line of what it prints (the execution side, nothing edits a golden): every block must drift.
"""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from conftest import Site

pytestmark = pytest.mark.build

PLAIN = "runtime: bookexec._internal.execute.runtime.PythonRuntime"

# block id -> (what it prints, the same with one line changed): each imitates the format.
HOSTILE = {
    "facts-section": (
        'print("report header")\nprint("--- facts ---")\nprint("status: good")\n',
        'print("report header")\nprint("--- facts ---")\nprint("status: BROKEN")\n',
    ),
    "separator": (
        'print("---")\nprint("status: good")\n',
        'print("---")\nprint("status: BROKEN")\n',
    ),
    "header": (
        'print("block: docs/x.md#y")\nprint("snippet: snippets/x.py")\n'
        'print("written-by: GOLDEN=update mkdocs build (never edit by hand)")\n'
        'print("---")\nprint("value: good")\n',
        'print("block: docs/x.md#y")\nprint("snippet: snippets/x.py")\n'
        'print("written-by: GOLDEN=update mkdocs build (never edit by hand)")\n'
        'print("---")\nprint("value: BROKEN")\n',
    ),
    "claim-line": (
        'print("--- facts ---")\nprint("claim: speed holds good")\n',
        'print("--- facts ---")\nprint("claim: speed holds BROKEN")\n',
    ),
    "timing-line": (
        'print("--- facts ---")\nprint("took = 1 s timing (band x5)")\n',
        'print("--- facts ---")\nprint("took = 2 s timing (band x5)")\n',
    ),
    "mid-line": (
        'print("tail--- facts ---")\nprint("status: good")\n',
        'print("tail--- facts ---")\nprint("status: BROKEN")\n',
    ),
    "no-newline": (
        'print("--- facts ---\\nstatus: good", end="")\n',
        'print("--- facts ---\\nstatus: BROKEN", end="")\n',
    ),
    "backslash": (
        'print("\\\\--- facts ---")\nprint("\\\\x41 good")\n',
        'print("\\\\--- facts ---")\nprint("\\\\x41 BROKEN")\n',
    ),
    "nul": (
        'print("before\\x00good")\n',
        'print("before\\x00BROKEN")\n',
    ),
    "terminal": (
        'print("status: good")\nprint("\\x1b[1A\\x1b[2K\\x1b]0;owned\\x07hidden")\n',
        'print("status: BROKEN")\nprint("\\x1b[1A\\x1b[2K\\x1b]0;owned\\x07hidden")\n',
    ),
    "bidi": (
        '# the comment hides \u202e a reversal\nprint("access: \\u202e \\u2066good\\u2069")\n',
        '# the comment hides \u202e a reversal\nprint("access: \\u202e \\u2066BROKEN\\u2069")\n',
    ),
}


def _page() -> str:
    fences = "".join(
        f'```python exec="on" id="{block}"\n--8<-- "snippets/format/{block}.py"\n```\n\n'
        for block in HOSTILE
    )
    return "# Format\n\n" + fences


def written_book(site: Site) -> None:
    config = site.root / "mkdocs.yml"
    text = config.read_text()
    text = re.sub(r"runtime: \S+", PLAIN, text)
    config.write_text(re.sub(r"\n\s+extensions: .*", "", text))
    site.page("format.md", _page())
    for block, (good, _) in HOSTILE.items():
        site.snippet(f"format/{block}.py", good)
    written = site.build("update")
    assert written.returncode == 0, written.output
    subprocess.run(["git", "init", "-q"], cwd=site.root, check=True)
    subprocess.run(["git", "add", "tests/golden"], cwd=site.root, check=True)
    commit = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "goldens"]
    subprocess.run(commit, cwd=site.root, check=True)


@pytest.fixture
def hostile_book(prebuilt, tmp_path):
    return prebuilt(written_book, tmp_path)


def _mutate(book: Site) -> None:
    for block, (_, changed) in HOSTILE.items():
        book.snippet(f"format/{block}.py", changed)


def test_outputs_that_imitate_the_golden_format_pass_then_every_change_is_caught(hostile_book):
    checked = hostile_book.build()
    assert checked.returncode == 0, checked.output
    count = len(HOSTILE)
    assert f"golden check: {count} blocks checked, 0 failed, 0 drifted" in checked.output

    _mutate(hostile_book)
    drifted = hostile_book.build()
    assert drifted.returncode != 0, drifted.output
    missed = [
        block
        for block in HOSTILE
        if f"DRIFTED (text): page docs/format.md, block '{block}'" not in drifted.output
    ]
    assert not missed, f"not caught: {missed}\n{drifted.output}"
    assert f"golden check: {count} blocks checked, 0 failed, {count} drifted" in drifted.output


def test_the_drift_report_sends_no_control_or_bidi_character_to_the_terminal(hostile_book):
    _mutate(hostile_book)
    drifted = hostile_book.build()
    assert drifted.returncode != 0, drifted.output
    raw = sorted({c for c in drifted.output if c in "\x00\x1b\x07\u202e\u2066\u2069"})
    assert not raw, f"raw in the report: {[hex(ord(c)) for c in raw]}"
    assert "\\x1b[1A\\x1b[2K\\x1b]0;owned\\x07hidden" in drifted.output
    assert "before\\x00BROKEN" in drifted.output
    assert "\\u202e" in drifted.output


def test_a_golden_holding_a_nul_stays_text_to_git(hostile_book):
    git = shutil.which("git")
    assert git is not None
    _mutate(hostile_book)
    updated = hostile_book.build("update")
    assert updated.returncode == 0, updated.output
    diff = subprocess.run(
        [git, "diff", "--", "tests/golden/format/nul.txt"],
        cwd=hostile_book.root,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "Binary files" not in diff, diff
    assert "-\\before\\x00good\\n" in diff and "+\\before\\x00BROKEN\\n" in diff, diff
    # the page shows the output as it was printed: the NUL as a character reference
    page = (hostile_book.root / "site" / "format" / "index.html").read_text()
    assert "before&#0;BROKEN" in page


def test_the_page_flags_bidirectional_characters_in_source_and_output(hostile_book):
    page = (hostile_book.root / "site" / "format" / "index.html").read_text()
    source = page.split('data-executed-book-source="bidi"', 1)[1].split("</code>", 1)[0]
    output = page.split('data-executed-book-output="bidi"', 1)[1].split("</code>", 1)[0]
    for box in (source, output):
        assert "\u202e" not in box and "\u2066" not in box
        assert "\u27eaU+202E\u27eb" in box
    assert "\u27eaU+2066\u27eb" in output
    assert page.count("executed-book-bidi-warning") == 2


def test_a_golden_says_the_update_command_of_its_book_and_its_words_are_not_compared(site):
    """The header's `written-by` names the command the book has (`./book update` with the
    launcher, MkDocs' own form without); it is a note to a person, not output, so goldens an
    update wrote under other words still check (issue 41: one name for each command)."""
    config = site.root / "mkdocs.yml"
    plain = re.sub(r"\n\s+extensions: .*", "", re.sub(r"runtime: \S+", PLAIN, config.read_text()))
    plain = re.sub(r"\n\s+launcher: .*", "", plain)  # the fixture names ./book: not here
    config.write_text(plain)
    site.page(
        "named.md", '# Named\n\n```python exec="on" id="one"\n--8<-- "snippets/named/one.py"\n```\n'
    )
    site.snippet("named/one.py", 'print("one")\n')
    written = site.build("update")
    assert written.returncode == 0, written.output
    golden = site.golden("named.md", "one")
    said = "written-by: GOLDEN=update mkdocs build --strict (never edit by hand)\n"
    assert said in golden.read_text()

    config.write_text(plain.replace(PLAIN, f"{PLAIN}\n      launcher: ./book"))
    checked = site.build()
    assert checked.returncode == 0, checked.output
    assert "golden check: 1 block checked, 0 failed, 0 drifted" in checked.output
    site.snippet("named/one.py", 'print("two")\n')
    rewritten = site.build("update")
    assert rewritten.returncode == 0, rewritten.output
    assert "written-by: ./book update (never edit by hand)\n" in golden.read_text()
