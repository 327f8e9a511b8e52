"""An output's images (`bookexec._internal.goldens.images`): taken out of the golden's text as
files, put back for a page shown from its goldens, and judged by their pixels within the
tolerance."""

from __future__ import annotations

import base64
import io

import pytest
from PIL import Image, ImageDraw

from bookexec._internal.goldens import images
from bookexec._internal.goldens.compare import compare
from bookexec._internal.render import fence


def _png(offset: int = 0, size: tuple[int, int] = (100, 80), shade: int = 0) -> bytes:
    """A real PNG: a white canvas with a dark square; `shade` lightens it by that many levels
    (antialiasing noise), `offset` moves it (a changed plot)."""
    canvas = Image.new("RGB", size, "white")
    ImageDraw.Draw(canvas).rectangle((20 + offset, 20, 50 + offset, 50), fill=(shade,) * 3)
    out = io.BytesIO()
    canvas.save(out, format="PNG")
    return out.getvalue()


def _uri(data: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(data).decode("ascii")


def test_an_image_leaves_the_text_as_a_reference_and_comes_back(tmp_path):
    data = _png()
    text, found = images.extract(f'<img src="{_uri(data)}" alt="plot" />\n', "plot")
    assert text == '<img src="data:image/png;golden,plot.1.png" alt="plot" />\n'
    assert found == [images.Image("plot.1.png", data)]
    (tmp_path / "plot.1.png").write_bytes(data)
    assert images.restore(text, tmp_path) == f'<img src="{_uri(data)}" alt="plot" />\n'


def test_a_data_uri_that_is_no_image_stays_as_printed():
    text = "data:image/png;base64,abc= data:image/png;base64,a"  # no PNG; no base64
    assert images.extract(text, "b") == (text, [])


def test_antialiasing_noise_holds():
    check = images.judge("plot.1.png", _png(), _png(shade=images.LEVELS))
    assert check.verdict == "held" and not check.changed, check.words


def test_a_moved_square_is_a_change_with_sizes_and_pixels():
    check = images.judge("plot.1.png", _png(), _png(offset=5))
    assert check.changed
    assert check.words.startswith(
        "image changed: plot.1.png: 100x80 px, "
    ) and "; 310 of 8000 pixels differ by more than 16 levels (3.88%, at most 0.1% may), " in (
        check.words
    ), check.words
    assert check.words.endswith("max difference 255 levels of 255"), check.words


def test_other_sizes_are_a_change():
    check = images.judge("plot.1.png", _png(), _png(size=(100, 81)))
    assert check.changed and "100x80 px" in check.words and "100x81 px" in check.words
    assert check.words.endswith("the sizes differ"), check.words


@pytest.mark.parametrize("present", [True, False])
def test_without_pillow_the_bytes_decide(monkeypatch, present):
    monkeypatch.setattr(images, "pillow", lambda: present)
    check = images.judge("plot.1.png", _png(), _png(shade=1))
    assert check.changed is not present
    assert ("its bytes differ" in check.words) is not present, check.words


def test_a_gone_image_and_a_new_one(tmp_path):
    (tmp_path / "b.1.png").write_bytes(_png())
    golden = tmp_path / "b.txt"
    old_text = "---\ndata:image/png;golden,b.1.png\n"
    checks = images.check(golden, old_text, [images.Image("b.2.png", _png())])
    assert [(c.name, c.verdict) for c in checks] == [("b.2.png", "new"), ("b.1.png", "gone")]
    size = f"100x80 px, {len(_png())} bytes"
    assert [c.words for c in checks] == [
        f"image new: b.2.png; this build's is {size}",
        f"image gone: b.1.png ({size})",
    ]


def test_an_image_the_golden_names_but_not_beside_it_is_missing(tmp_path):
    (check,) = images.check(tmp_path / "b.txt", "data:image/png;golden,b.1.png", [])
    assert check.changed and check.words == "image missing: b.1.png is not beside the golden"


def test_an_svg_goes_through_the_masks_and_a_png_does_not():
    svg = b'<svg xmlns="http://www.w3.org/2000/svg"><g id="p0123456789"/></svg>'
    uri = "data:image/svg+xml;base64," + base64.b64encode(svg).decode("ascii")
    png = _png()

    def mask(text: str) -> str:
        return text.replace("p0123456789", "(id)")

    text, found = images.extract(f"{uri} {_uri(png)}", "b", mask)
    assert text == "data:image/svg+xml;golden,b.1.svg data:image/png;golden,b.2.png"
    assert found == [
        images.Image("b.1.svg", b'<svg xmlns="http://www.w3.org/2000/svg"><g id="(id)"/></svg>'),
        images.Image("b.2.png", png),
    ]


def test_a_served_drift_shows_the_golden_image_beside_the_new_one(tmp_path):
    first = compare(tmp_path, "p.md", "plot", "docs/p.md (inline)", f'<img src="{_uri(_png())}">\n')
    first.path.parent.mkdir(parents=True)
    first.path.write_text(first.actual)
    (first.path.parent / "plot.1.png").write_bytes(_png())
    moved = _png(offset=5)
    drifted = compare(
        tmp_path, "p.md", "plot", "docs/p.md (inline)", f'<img src="{_uri(moved)}">\n'
    )
    assert drifted.status == "drifted" and drifted.kind == "text"
    assert drifted.notes()[0].startswith("text: image changed: plot.1.png: 100x80 px"), (
        drifted.notes()
    )
    view = fence.drift_warning(drifted, tmp_path)
    assert view.count("<img ") == 2, view
    assert view.index(_uri(_png())) < view.index(_uri(moved))  # the golden's first
