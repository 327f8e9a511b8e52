"""Images as images (`bookexec._internal.goldens.images`) on a real markdown-exec book whose block
prints a matplotlib plot as a base64 `<img>`, as py-ggsci's plotnine blocks do.

The update stores the PNG beside the golden and a reference in its text; the same plot drawn
again with sub-pixel noise holds within the tolerance; a changed plot fails the check with
an image drift (both sizes, the pixels that differ, the largest difference) and no base64
in the report; the review's page shows both images, and accepting writes the new one.
"""

from __future__ import annotations

import base64
import io
import re
from pathlib import Path

import pytest
from PIL import Image

from bookexec._internal.goldens import review
from conftest import Site

pytestmark = pytest.mark.build

CONFIG = """\
site_name: Plots
docs_dir: docs
plugins:
  - executed-book
markdown_extensions:
  - pymdownx.superfences
"""
PAGE = """\
# A plot

```python exec="on" html="1" id="plot"
import base64
import io

import matplotlib

matplotlib.use("agg")
import matplotlib.pyplot as plt

shift = 0.0
figure, axes = plt.subplots(figsize=(3, 2), dpi=100)
axes.plot([0, 1, 2], [y + shift for y in (0, 1, 4)])
axes.set_ylim(-0.5, 4.5)
drawn = io.BytesIO()
figure.savefig(drawn, format="png")
encoded = base64.b64encode(drawn.getvalue()).decode("ascii")
print(f'<img src="data:image/png;base64,{encoded}" alt="plot" />')
```
"""
GOLDEN = "goldens/index/plot.txt"
IMAGE = "goldens/index/plot.1.png"
_SHOWN = re.compile(r'data:image/png;base64,([A-Za-z0-9+/=]+)"')


@pytest.fixture(scope="module")
def book(tmp_path_factory) -> Site:
    """The book after its update: the golden and its image written."""
    root = tmp_path_factory.mktemp("images") / "book"
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "index.md").write_text(PAGE)
    (root / "mkdocs.yml").write_text(CONFIG)
    book = Site(root)
    update = book.build("update")
    assert update.returncode == 0, update.output
    return book


def _edited(book: Site, root: Path, old: str, new: str) -> Site:
    copy = book.copy(root)
    page = copy.root / "docs" / "index.md"
    assert old in page.read_text()
    page.write_text(page.read_text().replace(old, new))
    return copy


def _shown(book: Site) -> bytes:
    (found,) = _SHOWN.findall((book.root / "site" / "index.html").read_text())
    return base64.b64decode(found)


def test_the_update_stores_the_image_beside_the_golden(book):
    golden = (book.root / GOLDEN).read_text()
    assert golden.endswith('---\n<img src="data:image/png;golden,plot.1.png" alt="plot" />\n')
    stored = (book.root / IMAGE).read_bytes()
    assert Image.open(io.BytesIO(stored)).size == (300, 200)
    assert _shown(book) == stored  # the page shows the image the block printed


def test_the_same_plot_with_antialiasing_noise_holds(book, tmp_path):
    noisy = _edited(book, tmp_path / "book", "shift = 0.0", "shift = 0.001")
    check = noisy.build("check")
    assert check.returncode == 0, check.output
    assert "golden check: 1 block checked, 0 failed, 0 drifted, 0 new, 0 stale" in check.output
    stored = (noisy.root / IMAGE).read_bytes()
    assert _shown(noisy) != stored, "the noise changed no byte: the test would prove nothing"
    assert stored == (book.root / IMAGE).read_bytes()  # the check writes no golden


def test_a_changed_plot_fails_as_an_image_change_and_the_review_shows_both(book, tmp_path):
    changed = _edited(book, tmp_path / "book", "(0, 1, 4)", "(0, 2, 4)")
    check = changed.build("check")
    said = check.output
    assert check.returncode != 0, said
    assert "DRIFTED (text): page docs/index.md, block 'plot'" in said, said
    drift = re.search(
        r"image changed: plot\.1\.png: 300x200 px, \d+ bytes -> 300x200 px, \d+ bytes; "
        r"(\d+) of 60000 pixels differ by more than 16 levels \(\d+\.\d\d%, at most 0\.1% "
        r"may\), max difference (\d+) levels of 255",
        said,
    )
    assert drift and int(drift[1]) > 60 and int(drift[2]) > 16, said
    assert "base64" not in said and "golden check: 1 block checked, 0 failed, 1 drifted" in said
    assert "  both images side by side: .cache/bookexec/review-images.html" in said, said
    # The review: the page with both images, then accepting writes the new one.
    page = (changed.root / review.IMAGES_PAGE).read_text()
    pictures = [base64.b64decode(found) for found in _SHOWN.findall(page)]
    assert pictures == [(changed.root / IMAGE).read_bytes(), _shown(changed)], page[:500]
    _, (entry,) = review.load(changed.root)
    assert "both images side by side: .cache/bookexec/review-images.html" in review.show(
        entry, 1, 1
    )
    assert review.accept(changed.root, entry) == f"rewrote {GOLDEN}"
    assert (changed.root / IMAGE).read_bytes() == _shown(changed)
    again = changed.build("check")
    assert again.returncode == 0, again.output


def test_shown_from_its_goldens_the_page_has_the_image(book, tmp_path):
    recorded = book.copy(tmp_path / "book")
    built = recorded.build("check", BOOK_EXEC="off")
    assert built.returncode == 0, built.output
    assert _shown(recorded) == (book.root / IMAGE).read_bytes()


def test_the_update_deletes_an_image_no_longer_printed_and_a_stale_golden_s(book, tmp_path):
    shown = 'print(f\'<img src="data:image/png;base64,{encoded}" alt="plot" />\')'
    without = _edited(book, tmp_path / "without", shown, 'print("no plot")')
    update = without.build("update")
    assert update.returncode == 0, update.output
    assert f"deleted {IMAGE}" in update.output, update.output
    assert not (without.root / IMAGE).exists()
    assert (without.root / GOLDEN).read_text().endswith("---\nno plot\n")
    gone = book.copy(tmp_path / "gone")
    (gone.root / "docs" / "index.md").write_text("# No plot\n")
    update = gone.build("update")
    assert update.returncode == 0, update.output
    for path in (GOLDEN, IMAGE):
        assert f"deleted stale {path}" in update.output, update.output
    assert not (gone.root / "goldens" / "index").exists()


def test_accepting_a_stale_golden_in_the_review_deletes_its_image(book, tmp_path):
    gone = book.copy(tmp_path / "gone")
    (gone.root / "docs" / "index.md").write_text("# No plot\n")
    check = gone.build("check")
    assert check.returncode != 0 and f"STALE: golden {GOLDEN}" in check.output, check.output
    _, (entry,) = review.load(gone.root)
    assert review.accept(gone.root, entry) == f"deleted stale {GOLDEN}"
    assert not (gone.root / IMAGE).exists()
