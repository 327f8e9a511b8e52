"""Figures: drawn at build time from recorded values, byte-identical while the data hold.

The fixture's "measurements" come from the environment, so each test decides whether a
build measures inside the golden's bands or outside them.
"""

from __future__ import annotations

import re
import subprocess
import sys
from html import unescape

import pytest

from bookexec import facts
from conftest import REPO

FIGURE_PAGE = """\
# Figure

```python exec="on" id="curve"
--8<-- "snippets/figure/curve.py"
```

{{figure:curve.growth}}
"""

CURVE = """\
import os
from bookexec.facts import figure, record

scale = float(os.environ["BOOK_SNIPPET_SCALE"])
for n in (1, 2, 4):
    record(f"t_{n}", scale * n, kind="timing")
    record(f"s_{n}", scale / 10, kind="timing")
figure(
    "growth",
    x=[1, 2, 4],
    series={"grows": ["t_1", "t_2", "t_4"], "flat": ["s_1", "s_2", "s_4"]},
    xlabel="n",
    ylabel="seconds",
    alt="Line chart: the grows series rises with n & the flat series stays low.",
)
print("recorded")
"""

SVG = re.compile(r'<figure class="executed-book-figure" id="figure-growth">(<svg .*?</svg>)')


def svg_of(site) -> str:
    html = (site.root / "site" / "figure" / "index.html").read_text()
    found = SVG.findall(html)
    assert len(found) == 1, "the page should show the figure exactly once"
    return found[0]


def figured_book(site):
    site.page("figure.md", FIGURE_PAGE)
    site.snippet("figure/curve.py", CURVE)
    written = site.build("update", BOOK_SNIPPET_SCALE="0.1", BOOK_CACHE="off")
    assert written.returncode == 0, written.output


@pytest.fixture
def figured(prebuilt, tmp_path):
    return prebuilt(figured_book, tmp_path)


@pytest.mark.build
def test_golden_checks_the_data_and_the_page_shows_the_svg_with_its_alt_text(figured):
    golden = figured.goldens()["figure/curve.txt"]
    assert "t_4 = 0.4 s timing (band x5)" in golden  # the data, under its band
    assert re.search(r'^growth = figure \{.*"t_1", "t_2", "t_4".*\}$', golden, re.M)
    assert "<svg" not in golden  # not its pixels
    svg = svg_of(figured)
    alt = "Line chart: the grows series rises with n &amp; the flat series stays low."
    assert f'aria-label="{alt}"' in svg and f"<title>{alt}</title>" in svg
    assert "dc:date" not in svg and "Matplotlib v" not in svg  # no date, no creator stamp


@pytest.mark.build
def test_two_cold_builds_give_byte_identical_svgs(figured):
    first = svg_of(figured)
    # Two cold check builds, each measuring a little differently, inside the bands.
    for scale in ("0.13", "0.08"):
        result = figured.build(BOOK_SNIPPET_SCALE=scale, BOOK_CACHE="off")
        assert result.returncode == 0, result.output
        assert "0 drifted" in result.output
        assert svg_of(figured) == first


@pytest.mark.build
def test_a_measurement_outside_its_band_is_drawn_as_measured_and_noted_not_drift(figured):
    before = figured.goldens()
    result = figured.build(BOOK_SNIPPET_SCALE="1.0", BOOK_CACHE="off")  # ten times slower
    assert result.returncode == 0, result.output
    assert "0 drifted" in result.output
    assert "NOTE (timing): page docs/figure.md, block 'curve'" in result.output
    assert "timing t_4 = 4 s measured by this build, outside x5" in result.output
    html = (figured.root / "site" / "figure" / "index.html").read_text()
    # the caption tells the reader the values are measured (the note above says whose)
    caption = unescape(html.split("<figcaption>", 1)[1].split("</figcaption>", 1)[0])
    assert caption == "Drawn from measured values; a run on your machine measures its own."
    assert figured.goldens() == before


@pytest.mark.build
def test_a_figure_reference_to_nothing_names_page_and_line(site):
    site.page("figure.md", FIGURE_PAGE.replace("curve.growth", "curve.shrink"))
    site.snippet("figure/curve.py", CURVE)
    result = site.build("update", BOOK_SNIPPET_SCALE="0.1", BOOK_CACHE="off")
    assert result.returncode != 0
    assert "docs/figure.md:7: block 'curve' recorded no figure 'shrink'" in result.output


def draw_in_a_fresh_process() -> bytes:
    code = (
        "from bookexec._internal.render import figures\n"
        "spec = {'x': [1, 2, 4], 'series': {'a': ['p', 'q', 'r']}, 'xlabel': 'n',"
        " 'ylabel': 's', 'alt': 'A rising line.'}\n"
        "import sys\n"
        "sys.stdout.write(figures.draw_svg('probe', spec, {'p': 0.1, 'q': 0.2, 'r': 0.4}))\n"
    )
    return subprocess.run(
        [sys.executable, "-c", code], cwd=REPO / "hooks", capture_output=True, check=True
    ).stdout


def test_the_same_data_give_the_same_svg_bytes_in_two_processes():
    first, second = draw_in_a_fresh_process(), draw_in_a_fresh_process()
    assert first.startswith(b"<?xml") and b"<svg" in first
    assert first == second


def test_a_figure_must_plot_recorded_numbers_and_say_what_it_shows():
    facts.take()
    facts.record("a", 1.0, kind="timing")
    with pytest.raises(ValueError, match="names unrecorded facts"):
        facts.figure("f", x=[1], series={"s": ["b"]}, xlabel="x", ylabel="y", alt="A line.")
    with pytest.raises(ValueError, match="alt text"):
        facts.figure("f", x=[1], series={"s": ["a"]}, xlabel="x", ylabel="y", alt=" ")
    with pytest.raises(ValueError, match="1 points for 2 x values"):
        facts.figure("f", x=[1, 2], series={"s": ["a"]}, xlabel="x", ylabel="y", alt="A line.")
    spec = facts.figure("f", x=[1], series={"s": ["a"]}, xlabel="x", ylabel="y", alt="A line.")
    assert spec.startswith("figure {")
    facts.take()


@pytest.mark.build
def test_the_book_shows_both_figures(built_book):
    for page, name in (("control-flow", "compile_time"), ("retracing", "run_time")):
        html = (built_book / page / "index.html").read_text()
        assert html.count(f'<figure class="executed-book-figure" id="figure-{name}">') == 1, page
        assert 'role="img" aria-label="Line chart of' in html
