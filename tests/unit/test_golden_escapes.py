"""The golden body's escapes (issue 38, points 3, 5 and 9): every output reads back exactly,
no output line can be read as the golden's structure, the goldens already written stay byte
for byte the same, and what a terminal prints or a page shows never holds a raw control or
bidirectional character."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bookexec import facts as facts_api
from bookexec._internal import escapes
from bookexec._internal.goldens import measured, review
from bookexec._internal.goldens.compare import compare
from bookexec._internal.goldens.measured import Claim, Fact
from bookexec._internal.goldens.report import Failure, Report
from bookexec._internal.goldens.store import (
    decode_output,
    encode_output,
    parse,
    read_golden,
    render,
)
from bookexec._internal.render import fence
from conftest import REPO

pytestmark = pytest.mark.engine

# Everything that could pass for structure or be read as something else, and its pieces.
HOSTILE_LINES = [
    "---",
    "--- facts ---",
    "--- anything ---",
    "block: docs/x.md#y",
    "snippet: snippets/x.py",
    "written-by: GOLDEN=update mkdocs build (never edit by hand)",
    "claim: a >= b | the prose says: yes",
    "took = 1 s timing (band x5)",
    "n = 3",
    "\\",
    "\\n",
    "\\x00",
    "\\--- facts ---",
    "tail--- facts ---",
    "\x00",
    "\x1b[1A\x1b[2K",
    "\x1b]0;title\x07",
    "\r",
    "a\rb",
    "\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029",
    "\u202e\u2066\u2069\u200f\u061c",
    "\ud800",
    "\U0001f600",
    "\t",
    "",
]
ALPHABET = ["a", " ", "-", "\\", "\n", "x", "0", "u", "U", "{", "\t", *"".join(HOSTILE_LINES)]


def _hostile_outputs() -> list[str]:
    rng = random.Random(38)
    outputs = [line + end for line in HOSTILE_LINES for end in ("\n", "")]
    outputs.append("".join(line + "\n" for line in HOSTILE_LINES))
    for _ in range(3000):
        outputs.append("".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 24))))
    return outputs


def test_every_output_reads_back_exactly_from_its_golden():
    facts = [Fact("n", "exact", "3"), Fact("took", "timing", 0.5, 5.0)]
    claims = [Claim("n", ">=", 1.0, "at least one")]
    for output in _hostile_outputs():
        stored = encode_output(output)
        assert decode_output(stored) == (output, None), repr(output)
        text = render("p.md", "b", "snippets/p.py", stored + measured.render(facts, claims))
        parsed = parse(text)
        assert parsed.output == output, repr(output)
        assert (parsed.facts, parsed.claims) == (facts, claims), repr(output)
        assert parsed.header_fields()["block"] == "docs/p.md#b"


def test_no_stored_line_can_be_read_as_the_goldens_structure_or_binary():
    for output in _hostile_outputs():
        for line in encode_output(output).splitlines():
            assert line not in ("---", "--- facts ---"), repr(output)
            assert not (line.startswith("--- ") and line.endswith(" ---")), repr(output)
            assert "\x00" not in line and escapes.UNSAFE.search(line) is None, repr(output)


def test_the_goldens_already_written_are_written_byte_for_byte_the_same():
    paths = sorted((REPO / "tests" / "golden").rglob("*.txt"))
    paths += sorted((REPO / "tests" / "other-jax").rglob("*.txt"))
    assert len(paths) > 100
    for path in paths:
        text = path.read_text(encoding="utf-8")
        parsed = parse(text)
        again = parsed.header + "---\n" + encode_output(parsed.output)
        again += measured.render(parsed.facts, parsed.claims)
        assert again == text, path


def test_a_damaged_escaped_line_is_drift_with_its_line(tmp_path: Path):
    path = tmp_path / "p" / "b.txt"
    path.parent.mkdir()
    path.write_text(render("p.md", "b", "snippets/p.py", "\\ok\\q\n"))
    _, damage = read_golden(path)
    assert damage is not None and "its line 5 starts with a backslash" in damage
    assert compare(tmp_path, "p.md", "b", "snippets/p.py", "ok\\q").status == "drifted"


def test_the_facts_section_is_found_only_on_a_line_of_its_own(tmp_path: Path):
    for output in ("a\n--- facts ---\nstatus: good\n", "tail--- facts ---\nstatus: good\n"):
        golden = compare(tmp_path, "p.md", "b", "snippets/p.py", output)
        golden.path.parent.mkdir(parents=True, exist_ok=True)
        golden.path.write_text(golden.actual)
        changed = output.replace("good", "BROKEN")
        assert compare(tmp_path, "p.md", "b", "snippets/p.py", output).status == "ok"
        assert compare(tmp_path, "p.md", "b", "snippets/p.py", changed).status == "drifted"


RAW = "\x00\x07\x1b\x9b\u202e\u2066\u2069"


def _raw_in(text: str) -> list[str]:
    return sorted({hex(ord(c)) for c in text if c in RAW})


def test_the_check_report_shows_control_and_bidi_characters_escaped(tmp_path: Path):
    golden = compare(tmp_path, "p.md", "b", "snippets/p.py", "status: good\n")
    golden.path.parent.mkdir(parents=True)
    golden.path.write_text(golden.actual)
    drifted = compare(tmp_path, "p.md", "b", "snippets/p.py", "\x1b[1A\x1b[2K\u202eevil\x07\n")
    drifted.reasons.append("a note with \x1b]0;title\x07 and \u2066")
    failure = Failure("p.md", "c", "snippets/c.py", "raised ValueError: \x1b[2J\x9b\u202e\x00")
    report = Report(tmp_path, tmp_path, [drifted], [], [failure])
    lines = report.check_lines()
    assert not _raw_in("\n".join(lines))
    joined = "\n".join(lines)
    assert "\\x1b[2J\\x9b\\u202e\\x00" in joined and "\\x1b]0;title\\x07" in joined
    assert not _raw_in(report.summary())


def test_the_terminal_review_shows_control_and_bidi_characters_escaped():
    entry = review.Entry(
        "p.md",
        "b",
        "snippets/p.py",
        "tests/golden/p/b.txt",
        "text",
        notes=["text: \x1b[1A\x1b[2K"],
        aligned="\u202e reversed",
        diff="-\x1b]0;owned\x07\n+\u2066x\u2069\n",
        actual="\x00",
    )
    shown = review.show(entry, 1, 1)
    assert not _raw_in(shown), shown
    assert "\\x1b[1A\\x1b[2K" in shown and "\\x1b]0;owned\\x07" in shown
    new = review.Entry("p.md", "b", "snippets/p.py", "g", "new", actual="\x1b[2K\u202e")
    assert not _raw_in(review.show(new, 1, 1))


def test_bidirectional_controls_are_marked_in_html():
    marked = escapes.marked_html("if admin\u202e {")
    assert "\u202e" not in marked
    assert '<span class="executed-book-bidi" title="U+202E RIGHT-TO-LEFT OVERRIDE' in marked
    assert "\u27eaU+202E\u27eb" in marked
    assert escapes.visible("a\u2066b\u2069") == "a\u27eaU+2066\u27ebb\u27eaU+2069\u27eb"
    assert escapes.terminal("\t\n") == "\t\n"


def test_the_in_page_drift_view_marks_bidi_and_escapes_controls(tmp_path: Path):
    golden = compare(tmp_path, "p.md", "b", "snippets/p.py", "status: good\n")
    golden.path.parent.mkdir(parents=True)
    golden.path.write_text(golden.actual)
    drifted = compare(tmp_path, "p.md", "b", "snippets/p.py", "\u202eevil\x1b[2K\n")
    drifted.reasons.append("a note with \x1b]0;title\x07 and \u2066")
    view = fence.drift_warning(drifted, tmp_path, ("http://127.0.0.1:1", "token"))
    failed = fence.failure_box("raised ValueError: \u202e\x1b[2J")
    for html_text in (view, failed):
        assert not _raw_in(html_text), html_text
        assert f'<span class="{escapes.BIDI_CLASS}" title="U+' in html_text
        assert escapes.WARNING_CLASS in html_text
    assert "\\x1b]0;title\\x07" in view and "\\x1b[2J" in failed


@pytest.mark.parametrize(
    "call",
    [
        lambda: facts_api.record("forged", "3\nclaim: a >= 1"),
        lambda: facts_api.record("nul", "a\x00b"),
        lambda: facts_api.record("bidi", "a\u202eb"),
        lambda: facts_api.claim("a", ">=", 1, "the prose \x1b[2K says"),
    ],
)
def test_a_recorded_value_or_claim_is_one_line_of_plain_text(call):
    """A fact's value and a claim's words are golden lines too: no line break to forge a
    line of the section with, no character git or a terminal would read as something else."""
    with pytest.raises(ValueError, match="one line of plain text"):
        call()
    facts_api.take()


@pytest.mark.parametrize(
    ("golden", "now"),
    [
        ("a  \nb\n", "a\nb\n"),  # trailing spaces
        ("a\tb\t\n", "a\tb\n"),
        ("a\nb\n", "a\nb\n\n\n"),  # extra final blank lines
        ("a\nb\n", "a\nb"),  # no final newline
        ("a\nb\n", "a\rb\n"),  # a carriage return
        ("a\nb\n", "a\r\nb\r\n"),
        ("a\nb\n", "a\x0cb\n"),  # a form feed
        ("a\nb\n", "a\u2028b\n"),  # a line separator
    ],
)
def test_line_ends_and_trailing_spaces_are_drift_and_stored_escaped(tmp_path, golden, now):
    """Issue 53: what a block printed at the end of a line is compared as printed. A carriage
    return, a form feed and U+2028 are stored escaped (as the guide says), and so are trailing
    spaces and final blank lines, which an editor or a hook would otherwise trim from the file:
    no stored line ends in a space, and the body ends with a line that holds text."""
    from bookexec._internal.goldens.normalize import normalize

    args = (tmp_path, "p.md", "b", "snippets/p/b.py")
    written = compare(*args, normalize(golden, []))
    written.path.parent.mkdir(parents=True)
    written.path.write_text(written.actual)
    assert compare(*args, normalize(golden, [])).status == "ok"
    changed = compare(*args, normalize(now, []))
    assert changed.status == "drifted", f"{golden!r} -> {now!r}: {changed.status}"
    for output in (golden, now):
        stored = encode_output(output)
        assert decode_output(stored) == (output, None), repr(output)
        assert not any(line != line.rstrip(" \t") for line in stored.split("\n")), repr(stored)
        assert not stored.endswith("\n\n") and "\r" not in stored, repr(stored)
