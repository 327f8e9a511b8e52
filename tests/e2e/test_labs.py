"""Labs: stored without outputs, run by the book's executor, golden-checked, rendered by
mkdocs-jupyter with the worked solution collapsed."""

from __future__ import annotations

import json
import re

import nbformat
import pytest
import yaml

from conftest import PLUGIN, REPO

LABS = sorted((REPO / "docs" / "labs").glob("*.ipynb"))
# Chapters whose "Try it yourself" has no lab yet: custom-rules, split out of the transforms
# chapter (issue 52), whose lab covers transforms' own task.
TASK_WITHOUT_LAB = {"custom-rules"}

LAB_CONFIG = """
plugins:
  - markdown-exec:
      languages: []
  - mkdocs-jupyter:
      execute: false
      custom_template: {template}
{plugin}"""


def notebook(cells: list[dict]) -> str:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    for cell in cells:
        if cell["type"] == "markdown":
            nb.cells.append(nbformat.v4.new_markdown_cell(cell["source"], id=cell["id"]))
        else:
            nb.cells.append(
                nbformat.v4.new_code_cell(
                    cell["source"], id=cell["id"], metadata=cell.get("metadata", {})
                )
            )
    return json.dumps(nb, indent=1)


DEMO = [
    {"type": "markdown", "id": "task", "source": "# Lab: demo\n\nSquare a number."},
    {"type": "code", "id": "start", "source": "x = 7\nprint('x is', x)"},
    {
        "type": "code",
        "id": "solution",
        "source": "print('x squared is', x * x)",
        "metadata": {"tags": ["solution"]},
    },
    {
        "type": "code",
        "id": "oops",
        "source": "int('seven')",
        "metadata": {"bookexec": {"raises": "ValueError"}, "tags": ["raises-exception"]},
    },
    {
        "type": "code",
        "id": "checks",
        "source": "print('checking', x)",
        "metadata": {"tags": ["checks"], "jupyter": {"source_hidden": True}},
    },
]


def configure_labs(site):
    """A fixture book with one page and one lab, configured as the real book configures labs."""
    config = (site.root / "mkdocs.yml").read_text().split("plugins:")[0]
    template = REPO / "hooks" / "templates" / "lab.html.j2"
    tail = (
        "markdown_extensions:"
        + (site.root / "mkdocs.yml").read_text().split("markdown_extensions:")[1]
    )
    (site.root / "mkdocs.yml").write_text(
        config + LAB_CONFIG.format(template=template, plugin=PLUGIN) + tail
    )
    site.page("index.md", "# Home\n")
    (site.root / "docs" / "labs").mkdir()
    (site.root / "docs" / "labs" / "demo.ipynb").write_text(notebook(DEMO))


@pytest.fixture
def lab_site(site):
    configure_labs(site)
    return site


def written_labs(site):
    configure_labs(site)
    written = site.build(mode="update")
    assert written.returncode == 0, written.output


@pytest.fixture
def lab_written(prebuilt, tmp_path):
    """The lab book after its first update build (goldens written, site built), a copy each."""
    return prebuilt(written_labs, tmp_path)


# -- the real labs --------------------------------------------------------------------------


def test_every_task_has_a_lab_in_the_nav():
    nav = yaml.safe_load(
        re.sub(r"!relative \$config_dir", "''", (REPO / "mkdocs.yml").read_text())
    )["nav"]
    book = next(entry["Book"] for entry in nav if isinstance(entry, dict) and "Book" in entry)
    labs_nav = next(entry["Labs"] for entry in book if isinstance(entry, dict) and "Labs" in entry)
    in_nav = {next(iter(item.values())) for item in labs_nav}
    chapters = {
        page.stem
        for page in (REPO / "docs").glob("*.md")
        if "\n## Try it yourself\n" in page.read_text()
    }
    assert chapters >= TASK_WITHOUT_LAB  # each exempt name is a chapter with a task
    assert chapters and in_nav == {f"labs/{name}.ipynb" for name in chapters - TASK_WITHOUT_LAB}
    assert {f"labs/{lab.name}" for lab in LABS} == in_nav


@pytest.mark.parametrize("lab", LABS, ids=lambda path: path.stem)
def test_lab_sources_are_stored_without_outputs(lab):
    nb = nbformat.read(lab, as_version=4)
    nbformat.validate(nb)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, (lab.name, cell.id)


def nav_titles() -> dict[str, str]:
    """Each page of mkdocs.yml's nav and its title there: the title a lab cites."""
    nav = yaml.safe_load(
        re.sub(r"!relative \$config_dir", "''", (REPO / "mkdocs.yml").read_text())
    )["nav"]
    titles = {}

    def walk(entries):
        for entry in entries:
            for title, value in entry.items() if isinstance(entry, dict) else []:
                if isinstance(value, list):
                    walk(value)
                else:
                    titles[value] = title

    walk(nav)
    return titles


def exercises(nb) -> list[int]:
    """The numbers n of the lab's `answer-<n>` cells, in order."""
    return [int(c.id.split("-")[1]) for c in nb.cells if re.fullmatch(r"answer-\d+", c.id)]


@pytest.mark.parametrize("lab", LABS, ids=lambda path: path.stem)
def test_lab_has_three_exercises_each_with_answer_check_and_folded_solution(lab):
    """The structure every lab follows (docs/guide/labs.md), so that a new lab can copy it."""
    nb = nbformat.read(lab, as_version=4)
    cells = {c.id: c for c in nb.cells}
    order = [c.id for c in nb.cells]
    title = nav_titles()[f"{lab.stem}.md"]
    assert order[:3] == ["task", "start", "checks"]
    assert f"The lab of the chapter *{title}*." in cells["task"].source, "cite the nav title"
    assert cells["checks"].metadata["tags"] == ["checks"]
    assert cells["checks"].metadata["jupyter"]["source_hidden"] is True
    numbers = exercises(nb)
    assert len(numbers) >= 3 and numbers == list(range(1, len(numbers) + 1))
    for n in numbers:
        ids = [f"exercise-{n}", f"answer-{n}", f"check-{n}", f"solution-{n}"]
        assert [order.index(i) for i in ids] == sorted(order.index(i) for i in ids), ids
        assert cells[f"exercise-{n}"].source.startswith(f"## Exercise {n}: ")
        assert cells[f"check-{n}"].source == f"check({n}, problem_{n})"
        assert f"def problem_{n}():" in cells["checks"].source
        solution = cells[f"solution-{n}"]
        assert "solution" in solution.metadata["tags"]
        assert solution.metadata["jupyter"]["source_hidden"] is True  # collapsed in Jupyter too
        assert solution.source.endswith(f"check({n}, problem_{n})")
        for i in ids[:3]:
            assert "solution" not in cells[i].metadata.get("tags", [])
    goldens = REPO / "tests" / "golden" / "labs" / lab.stem
    ids = {c.id for c in nb.cells if c.cell_type == "code"}
    assert {p.stem for p in goldens.glob("*.txt")} == ids


@pytest.mark.parametrize("lab", LABS, ids=lambda path: path.stem)
def test_lab_prose_points_only_at_what_the_lab_holds(lab):
    """A lab is read on its own: no "as above" about a chapter's blocks, no page's session."""
    nb = nbformat.read(lab, as_version=4)
    prose = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown").lower()
    for phrase in ("as above", "from above", "this page", "the page's", "this chapter"):
        assert phrase not in prose, (lab.name, phrase)


@pytest.mark.parametrize("lab", LABS, ids=lambda path: path.stem)
def test_lab_checks_pass_when_solved_and_say_not_yet_when_given(lab, lab_play):
    """Solutions in place of the answer cells: every check says correct. The answer cells as
    given: every check says "not yet" and why, and no cell raises (no traceback)."""
    report = lab_play(lab.stem)
    numbers = exercises(nbformat.read(lab, as_version=4))
    for mode, verdict in (("solved", "correct"), ("given", "not yet: ")):
        ran = {step["id"]: step for step in report[mode]}
        for step in report[mode]:
            assert step["raised"] == step["expected"] or (
                step["expected"] and step["raised"].startswith(step["expected"] + ":")
            ), (mode, step)
        for n in numbers:
            said = ran[f"check-{n}"]["stdout"]
            assert said.startswith(f"Exercise {n}: {verdict}"), (mode, said)
            assert said.count("\n") == 1, (mode, said)
            if mode == "given":
                assert len(said) > len("Exercise 1: not yet: ") + 20, said  # says what to do


@pytest.mark.parametrize("lab", LABS, ids=lambda path: path.stem)
def test_lab_page_shows_not_yet_under_each_check_and_correct_in_its_solution(lab):
    """The build runs a lab in page order: the check after a given answer cell records the
    "not yet" a reader sees first; the folded solution, which runs the check again, "correct"."""
    for n in exercises(nbformat.read(lab, as_version=4)):
        check = (REPO / "tests" / "golden" / "labs" / lab.stem / f"check-{n}.txt").read_text()
        solved = (REPO / "tests" / "golden" / "labs" / lab.stem / f"solution-{n}.txt").read_text()
        assert check.split("---\n", 1)[1].startswith(f"Exercise {n}: not yet: "), check
        assert solved.endswith(f"Exercise {n}: correct\n"), solved


# -- a fixture lab, built by the real strict build ------------------------------------------


@pytest.mark.build
def test_lab_runs_renders_and_drifts_like_a_page(lab_written):
    site = lab_written
    golden = site.golden("labs/demo.ipynb", "solution")
    assert golden.read_text().endswith("---\nx squared is 49\n")
    error = site.golden("labs/demo.ipynb", "oops").read_text()
    assert "ValueError: invalid literal for int() with base 10: 'seven'" in error

    html = (site.root / "site" / "labs" / "demo" / "index.html").read_text()
    assert "x is 7" in html and "x squared is 49" in html
    # The solution sits in a closed <details>; the start cell does not.
    details = re.search(r'<details class="book-lab-solution"[^>]*>(.*?)</details>', html, re.S)
    assert details and "x squared is" in details[1] and "x is 7" not in details[1]
    # The checks' code sits in a closed <details> of its own.
    checks = re.search(r'<details class="book-lab-checks"[^>]*>(.*?)</details>', html, re.S)
    assert checks and "checking" in checks[1] and "x squared is" not in checks[1]
    source = json.loads((site.root / "docs" / "labs" / "demo.ipynb").read_text())
    assert all(not c.get("outputs") for c in source["cells"]), "the source stays output-free"

    assert site.build().returncode == 0
    golden.write_text(golden.read_text().replace("49", "48"))  # as if the output drifted
    drift = site.build()
    assert drift.returncode != 0
    out = drift.output
    assert "DRIFTED (text): lab docs/labs/demo.ipynb, cell 'solution'" in out
    assert "-x squared is 48" in out and "+x squared is 49" in out
    assert "golden check: 4 blocks checked, 0 failed, 1 drifted, 0 new, 0 stale" in out


@pytest.mark.build
def test_lab_page_links_to_the_reader_s_notebook_the_site_ships(lab_written):
    """Under the lab's title, a download link to the notebook beside the page: the lab as
    given, with the set-up cell, without outputs or the engine's metadata; no Colab link
    without a `repo_url`."""
    site = lab_written.root / "site"
    html = (site / "labs" / "demo" / "index.html").read_text()
    # nbconvert's sanitiser may reorder an element's attributes
    link = re.search(r'<p class="book-notebook">(.*?)</p>', html, re.S)
    assert link and html.index(link[0]) > html.index("Lab: demo")
    assert 'href="demo.ipynb"' in link[1] and 'download="demo.ipynb"' in link[1]
    assert "Download this lab as a Jupyter notebook" in link[1]
    assert "colab" not in html.lower()
    nb = nbformat.read(site / "labs" / "demo" / "demo.ipynb", as_version=4)
    assert [c.id for c in nb.cells] == ["task", "setup", "start", "solution", "oops", "checks"]
    assert "%pip install -q jax==" in nb.cells[1].source
    assert all(not c.outputs for c in nb.cells if c.cell_type == "code")
    assert "bookexec" not in (site / "labs" / "demo" / "demo.ipynb").read_text()


@pytest.mark.build
def test_lab_links_to_colab_when_the_book_names_its_github_repository(lab_site):
    config = lab_site.root / "mkdocs.yml"
    config.write_text("repo_url: https://github.com/someone/a-book\n" + config.read_text())
    result = lab_site.build(mode="update")
    assert result.returncode == 0, result.output
    site = lab_site.root / "site"
    colab = (
        "https://colab.research.google.com/github/someone/a-book/blob/gh-pages/labs/demo/demo.ipynb"
    )
    html = (site / "labs" / "demo" / "index.html").read_text()
    assert f'<a href="{colab}">open it in Colab</a>' in html
    nb = nbformat.read(site / "labs" / "demo" / "demo.ipynb", as_version=4)
    assert nb.cells[1].source == f"[Open this notebook in Colab]({colab})"


@pytest.mark.build
def test_lab_with_stored_outputs_fails_the_build(lab_site):
    path = lab_site.root / "docs" / "labs" / "demo.ipynb"
    nb = json.loads(path.read_text())
    nb["cells"][1]["outputs"] = [{"output_type": "stream", "name": "stdout", "text": "x is 7\n"}]
    path.write_text(json.dumps(nb))
    result = lab_site.build(mode="update")
    assert result.returncode != 0
    assert "docs/labs/demo.ipynb: cells start have stored outputs" in result.output


def test_lab_cell_with_a_bad_option_value_fails_like_a_fence(lab_site):
    path = lab_site.root / "docs" / "labs" / "demo.ipynb"
    nb = json.loads(path.read_text())
    nb["cells"][2]["metadata"]["bookexec"] = {"timeout": "soon"}
    path.write_text(json.dumps(nb))
    result = lab_site.build(mode="update")
    assert result.returncode != 0
    assert "('solution'): option timeout=\"soon\" must be a positive number" in result.output
    assert not (lab_site.root / "tests" / "golden").exists()  # nothing ran, nothing written


@pytest.mark.build
def test_lab_cell_that_raises_undeclared_names_lab_and_cell(lab_site):
    path = lab_site.root / "docs" / "labs" / "demo.ipynb"
    nb = json.loads(path.read_text())
    nb["cells"][2]["source"] = "print(y)"
    path.write_text(json.dumps(nb))
    result = lab_site.build(mode="update")
    assert result.returncode != 0
    assert "docs/labs/demo.ipynb:3 (block 'solution'" in result.output
    assert "NameError" in result.output


@pytest.mark.build
@pytest.mark.browser
def test_reader_opens_the_solution_on_request(lab_written, browser_page):
    page = browser_page(lab_written.root / "site", "labs/demo/")
    assert page.get_by_text("x is 7").first.is_visible()
    solution = page.get_by_text("x squared is 49").first
    assert not solution.is_visible(), "the worked solution starts collapsed"
    page.locator("details.book-lab-solution summary").first.click()
    assert solution.is_visible()


def test_a_lab_s_cells_become_blocks_as_a_page_s_fences_do(tmp_path, monkeypatch):
    """One constructor for a page's and a lab's blocks: index, line, snippet and options."""
    from bookexec._internal.discover import blocks
    from jaxbook import labs

    made = []

    def recording(found, *args):
        blocks.add_block(found, *args)
        made.append(found[-1])

    monkeypatch.setattr(labs, "add_block", recording)
    path = tmp_path / "demo.ipynb"
    path.write_text(notebook(DEMO))
    found = labs.scan_lab("labs/demo.ipynb", path)
    assert found == made
    assert [(b.index, b.line, b.id) for b in found] == [
        (0, 2, "start"),
        (1, 3, "solution"),
        (2, 4, "oops"),
        (3, 5, "checks"),
    ]
    assert {b.snippet for b in found} == {"docs/labs/demo.ipynb"}
    assert found[2].options == {"raises": "ValueError"}


def test_a_lab_s_copy_is_written_by_the_notebook_writer(tmp_path, monkeypatch):
    """The executed lab copy goes through the chapter notebooks' one writer: validated,
    atomic, and byte for byte the same format."""
    from jaxbook import labs, notebooks

    source = tmp_path / "demo.ipynb"
    source.write_text(notebook(DEMO))
    blocks = labs.scan_lab("labs/demo.ipynb", source)

    class Judged:  # what `render` asks of the engine's Build
        def __init__(self):
            self.plans = {"labs/demo.ipynb": blocks}
            self.pending_blocks: set = set()

        def judged(self, src, block):
            return f"ran {block.id}\n", None, None

    written = []
    real = notebooks.write

    def recording(path, nb):
        written.append(path)
        real(path, nb)

    monkeypatch.setattr(notebooks, "write", recording)
    out = tmp_path / "site"
    copy = labs.render(Judged(), "labs/demo.ipynb", source, out)
    assert written == [copy] == [out / "demo.ipynb"]
    nb = nbformat.read(copy, as_version=4)
    nbformat.validate(nb)
    assert [c.outputs[0].text for c in nb.cells if c.cell_type == "code"][:1] == ["ran start\n"]
    again = tmp_path / "again.ipynb"
    real(again, nb)
    assert again.read_bytes() == copy.read_bytes()
