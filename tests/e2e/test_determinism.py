"""Two cold builds agree byte for byte, except in the places named here; pages built alone
agree with the whole book too.

The two builds are the suite's one cold build of the whole book (`built_book`, under another
hash seed than the goldens were written under) and one more cold build of a few real chapters
alone (a copy of the book cut to them and without their labs, `conftest.cut_book`), in update
mode under the goldens' own seed. The chapters hold every kind of output the book makes
(jaxprs, counts, declared errors, steppers, a figure, timings and ratios between them, quoted
in prose), so the second build costs a fraction of a whole one. Every block of the whole book,
chapters and labs, equals its golden in the first (its strict check); the second must write no
golden, and its pages must say what the whole book's say.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from conftest import REPO, Site, cut_book
from jaxbook.drift_watch import scratch_copy

pytestmark = pytest.mark.build

# Chapters with jaxprs, counts, declared errors, steppers, a figure, timings and ratios.
CHAPTERS = ("tracers", "retracing", "jit-in-practice")

# The only places two builds may differ, and why:
ALLOWED_CLASSES = (
    "executed-book-measured",  # a timing or ratio measured in this build (prose and outputs)
    "executed-book-build-date",  # the date the site was built
)
# An object id or a default repr's address JAX printed: the page shows the number the code
# printed (the golden holds the placeholder), as escaped in HTML or a notebook's JSON.
ALLOWED_PRINTED = re.compile(
    r"(?<=Tracer with object id )\d+(?= was created)|(?<=\bVar\(id=)\d+(?=\))"
    r"|(?<=\w id=)\d+(?= defined at )|(?<= at 0x)[0-9a-fA-F]+(?=&gt;|>)"
)
# What the cut makes differ, none of it an output: a link into a page the cut copy leaves out
# (MkDocs resolves it in the whole book only), a glossary card's "taught in" such a page, and
# the sentence that links a chapter's task to its lab (the cut copy has no labs: the whole
# book's build checked every lab cell against its golden).
_LINK = re.compile(r'href="(?:\.\./)*([\w-]+)(?:/|\.md)(#[^"]*)?"')
_LAB = re.compile(r'\n<p>The <a href="[^"]*">lab</a> turns this into exercises[^<]*</p>')
_CARD = re.compile(
    r'<span class="executed-book-card".*?executed-book-card-taught.*?</a></span>', re.S
)


def mask(html: str) -> str:
    """Blank the content of every element of an allowed class (they hold no nested tags)."""
    for name in ALLOWED_CLASSES:
        html = re.sub(rf'(<(\w+)[^>]*class="[^"]*\b{name}\b[^"]*"[^>]*>).*?(</\2>)', r"\1…\3", html)
    return ALLOWED_PRINTED.sub("…", html)


def uncut(html: str) -> str:
    """Links out of the cut copy's chapters and glossary cards blanked, the lab's sentence cut."""
    html = _LAB.sub("", _CARD.sub("…", html))
    return _LINK.sub(lambda m: m[0] if m[1] in CHAPTERS else 'href="…"', html)


def article(site: Path, chapter: str) -> str:
    html = (site / chapter / "index.html").read_text(encoding="utf-8")
    found = re.search(r"<article\b.*?</article>", html, re.S)
    assert found, f"{chapter}: the page has no article"
    return found[0]


def ours(golden: str) -> bool:
    """Is this golden (its path under tests/golden) one of the chapters'?"""
    return golden.split("/")[0] in CHAPTERS


def goldens(root: Path) -> dict[str, bytes]:
    folder = root / "tests" / "golden"
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*.txt"))}


@pytest.fixture(scope="module")
def alone(built_book, tmp_path_factory) -> tuple[Site, str]:
    """The chapters alone, without their labs, built cold in update mode under the default
    hash seed: the site, and what the build printed."""
    root = tmp_path_factory.mktemp("determinism") / "book"
    scratch_copy(REPO, root)
    for chapter in CHAPTERS:
        (root / "docs" / "labs" / f"{chapter}.ipynb").unlink()
        shutil.rmtree(root / "tests" / "golden" / "labs" / chapter)
    cut_book(root, CHAPTERS)
    site = Site(root)
    result = site.build("update", BOOK_CACHE="off", BOOK_HASH_SEED="0")
    assert result.returncode == 0, result.output
    return site, result.output


def test_two_cold_builds_write_byte_identical_goldens(alone):
    """A time never makes the update rewrite a golden, so the second build writes nothing:
    its goldens are byte for byte those the whole book's build checked clean."""
    site, log = alone
    assert "0 written (0 new), 0 stale deleted" in log, log[-3000:]
    written = goldens(site.root)
    assert len(written) > 15
    assert written == {k: v for k, v in goldens(REPO).items() if ours(k)}
    timed = [name for name in written if b" timing (band x" in written[name]]
    print(f"\ngoldens: {len(written)}, with timings: {len(timed)}")


def test_two_cold_builds_make_the_same_html_but_for_the_named_places(alone, built_book):
    """Each chapter's page (its article) and notebook, built alone, are the whole book's but
    for the named places."""
    site, _ = alone
    marked = 0
    for chapter in CHAPTERS:
        first, second = article(built_book, chapter), article(site.root / "site", chapter)
        marked += first.count('class="executed-book-measured"')
        assert uncut(mask(first)) == uncut(mask(second)), chapter
        name = f"{chapter}/{chapter}.ipynb"
        # A chapter notebook's prose quotes the same marked values, escaped as JSON.
        notebooks = [
            (folder / name).read_text(encoding="utf-8").replace('\\"', '"')
            for folder in (built_book, site.root / "site")
        ]
        assert uncut(mask(notebooks[0])) == uncut(mask(notebooks[1])), name
    assert marked >= 4, "the chapters should show timings both in outputs and in prose"


def test_a_page_built_alone_gives_the_same_goldens(alone):
    """The chapters built without the rest of the book: only their goldens, each the whole
    book's (the first test compares the bytes), and every block of theirs ran."""
    site, log = alone
    written = goldens(site.root)
    assert all(ours(name) for name in written), sorted(written)
    assert {name.split("/")[0] for name in written} == set(CHAPTERS)
    assert re.search(rf"bookexec summary: {len(written)} blocks executed, 0 from cache", log), log[
        -3000:
    ]
