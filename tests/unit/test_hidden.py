"""Hidden lines: what the reader sees of a snippet, and the markers that cannot be read."""

from __future__ import annotations

import pytest

from bookexec._internal.discover.blocks import scan_page
from bookexec._internal.discover.hidden import file_line, numbering, shown
from bookexec._internal.errors import BookError
from bookexec._internal.execute.worker import Numbering

pytestmark = pytest.mark.engine


def test_a_trailing_mark_hides_its_line_and_the_blank_lines_close_up():
    code = (
        "import jax\n"
        "\n"
        "from bookexec.facts import record  # hidden\n"
        "\n"
        "\n"
        "def f(x):\n"
        "    return x * 2\n"
        "\n"
        'print("f:", f(3.0))\n'
        'record("f_at_3", str(f(3.0)))  # hidden\n'
    )
    assert shown(code) == ('import jax\n\n\ndef f(x):\n    return x * 2\n\nprint("f:", f(3.0))\n')


def test_a_region_hides_every_line_between_its_markers():
    code = (
        "x = 1\n"
        "# hidden: begin\n"
        "from bookexec.facts import claim\n"
        "\n"
        'claim("x", ">=", 1)\n'
        "# hidden: end\n"
        "print(x)\n"
    )
    assert shown(code) == "x = 1\nprint(x)\n"


def test_only_real_comments_are_marks():
    code = 'print("# hidden")\ntext = """\n# hidden: begin\n"""\nv = 1  # noqa: E731  # hidden\n'
    assert shown(code) == 'print("# hidden")\ntext = """\n# hidden: begin\n"""\n'


def test_a_snippet_with_no_marks_is_shown_whole():
    code = "import jax\n\n\nprint(jax.numpy.ones(3))  # a comment\n"
    assert shown(code) == code


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("x = 1\n# hidden: begin\ny = 2\n", "line 2: '# hidden: begin' is never closed"),
        ("x = 1\n# hidden: end\n", "line 2: '# hidden: end' with no '# hidden: begin'"),
        (
            "# hidden: begin\n# hidden: begin\n# hidden: end\n",
            "line 2: '# hidden: begin' inside the hidden region opened at line 1",
        ),
        (
            "total = sum([\n    1,\n    2,\n])  # hidden\n",
            "line 4: '# hidden' on one line of a statement written over several",
        ),
        (
            "total = sum([  # hidden\n    1,\n])\n",
            "line 1: '# hidden' on one line of a statement written over several",
        ),
    ],
)
def test_a_marker_that_cannot_be_read_one_way_names_its_line(code, message):
    with pytest.raises(BookError) as raised:
        shown(code, "docs/ch.md:5 (block 'a', snippet snippets/ch/a.py)")
    assert str(raised.value).startswith("docs/ch.md:5 (block 'a', snippet snippets/ch/a.py): ")
    assert message in str(raised.value)


def test_a_block_keeps_what_it_runs_and_what_it_shows(tmp_path):
    (tmp_path / "snippets" / "ch").mkdir(parents=True)
    code = "x = 2\nprint(x)\nassert x == 2  # hidden\n"
    (tmp_path / "snippets" / "ch" / "a.py").write_text(code)
    page = '# Ch\n\n```python exec="on" id="a"\n--8<-- "snippets/ch/a.py"\n```\n'
    (block,) = scan_page("ch.md", page, tmp_path)
    assert (block.code, block.shown) == (code, "x = 2\nprint(x)\n")


def test_the_scan_fails_on_a_bad_marker_naming_page_block_snippet_and_line(tmp_path):
    (tmp_path / "snippets" / "ch").mkdir(parents=True)
    (tmp_path / "snippets" / "ch" / "a.py").write_text("x = 2\n# hidden: begin\n")
    page = '# Ch\n\n```python exec="on" id="a"\n--8<-- "snippets/ch/a.py"\n```\n'
    with pytest.raises(BookError, match=r"^docs/ch.md:3 \(block 'a', snippet snippets/ch/a.py\): "):
        scan_page("ch.md", page, tmp_path)


def test_each_line_runs_as_the_shown_code_numbers_it_and_reads_back_to_the_file():
    code = (
        "\n"  # 1: a blank line the page leaves out
        "from bookexec.facts import record  # hidden\n"  # 2
        "import jax\n"  # 3: shown line 1
        "\n"  # 4: meets line 8 where the hidden lines are taken out: left out
        "# hidden: begin\n"  # 5
        "x = 1\n"  # 6
        "# hidden: end\n"  # 7
        "\n"  # 8: shown line 2
        "print(jax)\n"  # 9: shown line 3
        'record("x", 1)  # hidden\n'  # 10
    )
    assert shown(code) == "import jax\n\nprint(jax)\n"
    # Hidden lines run past the shown code's three lines; blank ones left out as the line before.
    assert numbering(code) == [1, 3 + 2, 1, 1, 3 + 5, 3 + 6, 3 + 7, 2, 3, 3 + 10]
    # Back to the file: exact for every line holding code.
    assert [file_line(code, n) for n in numbering(code)] == [3, 2, 3, 3, 5, 6, 7, 8, 9, 10]


def test_a_snippet_without_hidden_lines_runs_as_written():
    code = "import jax\n\n\nprint(jax.numpy.ones(3))\n"
    assert numbering(code) == [1, 2, 3, 4]


def test_the_worker_reads_a_line_back_to_the_file_as_the_scan_does():
    # A blank first line, left out of the page, also runs as shown line 1: the author's
    # messages must still name the line that holds the code.
    code = (
        "\n"
        "import jax\n"
        "from bookexec.facts import record  # hidden\n"
        "\n"
        "print(jax)\n"
        'record("x", 1)  # hidden\n'
    )
    numbered = Numbering(code, "snippets/page/block0.py", numbering(code), shown(code))
    assert [numbered.file_line(n) for n in numbering(code)] == [
        file_line(code, n) for n in numbering(code)
    ]
    assert numbered.file_line(1) == 2


def test_a_block_tokenizes_its_code_once_and_code_with_no_marker_not_at_all(monkeypatch):
    """Scanning a page reads each block's hidden lines once (the shown code and the numbering
    come from one reading), and code that never says `hidden` holds no marker to tokenize for:
    the scan of every page is part of what a one-block update waits for (issue 41)."""
    from bookexec._internal.discover import hidden
    from bookexec._internal.discover.blocks import Block

    read: list[str] = []
    real = hidden._comments

    def counted(code: str):
        read.append(code)
        return real(code)

    monkeypatch.setattr(hidden, "_comments", counted)
    marked = 'import jax\nfrom bookexec.facts import record  # hidden\nprint("x")  # a comment\n'
    block = Block("p.md", 0, 3, "b", "snippets/p/b.py", marked)
    assert block.shown == 'import jax\nprint("x")  # a comment\n'
    assert block.numbering == (1, 4, 2)
    assert read == [marked]
    plain = 'import jax  # not a marker\nprint("y")\n'
    block = Block("p.md", 1, 9, "c", "snippets/p/c.py", plain)
    assert (block.shown, block.numbering) == (plain, (1, 2))
    assert read == [marked]
