"""Two cold builds agree byte for byte, except in the places named here; a page alone agrees too.

The fixture site runs the executed blocks of a few real chapters (their own snippets, in their
order, with their options), and quotes each of their timings and ratios in prose, so every
kind of output the book makes is covered at a fraction of a whole build's cost. The whole
book's outputs under another hash seed: the mutation build, tests/e2e/test_mutation.py.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from bookexec._internal.discover.blocks import scan_page
from bookexec._internal.goldens.store import parse
from conftest import REPO, Site, new_site

pytestmark = pytest.mark.build

# Chapters with jaxprs, counts, declared errors, timings and ratios between them.
CHAPTERS = ("tracers", "retracing", "jit-in-practice")

# The only places two builds may differ, and why:
ALLOWED_CLASSES = (
    "executed-book-measured",  # a timing or ratio measured in this build (prose and outputs)
    "executed-book-measured",  # the same, in a chapter notebook's prose
    "executed-book-build-date",  # the date the site was built
)
ALLOWED_FILES = ("sitemap.xml", "sitemap.xml.gz")  # MkDocs dates each page by the build
# An object id or a default repr's address JAX printed: the page shows the number the code
# printed (the golden holds the placeholder), as escaped in HTML or a notebook's JSON.
ALLOWED_PRINTED = re.compile(
    r"(?<=Tracer with object id )\d+(?= was created)|(?<=\bVar\(id=)\d+(?=\))"
    r"|(?<=\w id=)\d+(?= defined at )|(?<= at 0x)[0-9a-fA-F]+(?=&gt;|>)"
)


def fixture_book(site) -> None:
    """Each chapter's executed fences, top level and in order, and a sentence per timing."""
    for chapter in CHAPTERS:
        page = f"{chapter}.md"
        blocks = scan_page(page, (REPO / "docs" / page).read_text(), REPO)
        parts = [f"# {chapter}\n"]
        for block in blocks:
            options = " ".join(f'{k}="{v}"' for k, v in block.options.items())
            parts.append(f'```python {options}\n--8<-- "{block.snippet}"\n```\n')
            golden = REPO / "tests" / "golden" / chapter / f"{block.id}.txt"
            for fact in parse(golden.read_text()).facts:
                if fact.banded:
                    parts.append(f"It took {{{{fact:{block.id}.{fact.name}}}}} here.\n")
        site.page(page, "\n".join(parts))
        shutil.copytree(REPO / "snippets" / chapter, site.root / "snippets" / chapter)


def mask(html: str) -> str:
    """Blank the content of every element of an allowed class (they hold no nested tags)."""
    for name in ALLOWED_CLASSES:
        html = re.sub(rf'(<(\w+)[^>]*class="[^"]*\b{name}\b[^"]*"[^>]*>).*?(</\2>)', r"\1…\3", html)
    return ALLOWED_PRINTED.sub("…", html)


def site_files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def goldens(root: Path) -> dict[str, bytes]:
    folder = root / "tests" / "golden"
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*.txt"))}


@pytest.fixture(scope="module")
def two_builds(tmp_path_factory):
    site = new_site(tmp_path_factory.mktemp("determinism") / "book")
    root = site.root
    fixture_book(site)
    builds = []
    for _ in range(2):
        result = site.build("update", BOOK_CACHE="off", BOOK_JOBS="1")
        assert result.returncode == 0, result.output
        builds.append((result.output, goldens(root), site_files(root / "site")))
    return site, builds


def test_two_cold_builds_write_byte_identical_goldens(two_builds):
    """A time never makes the update rewrite a golden, so the second build writes nothing."""
    _, ((_, first, _), (second_log, second, _)) = two_builds
    assert len(first) > 15
    assert "0 written (0 new), 0 stale deleted" in second_log
    assert second == first
    timed = [name for name in first if b" timing (band x" in first[name]]
    print(f"\ngoldens: {len(first)}, with timings: {len(timed)}")


def test_two_cold_builds_make_the_same_html_but_for_the_named_places(two_builds):
    _, ((_, _, first), (_, _, second)) = two_builds
    assert sorted(first) == sorted(second)
    html = [name for name in first if name.endswith(".html")]
    marked = sum(first[name].count(b'class="executed-book-measured"') for name in html)
    assert marked >= 4, "the fixture should show timings both in outputs and in prose"
    differ = []
    for name in sorted(first):
        if first[name] == second[name]:
            continue
        if name.endswith(".html"):
            assert mask(first[name].decode()) == mask(second[name].decode()), name
        elif name.endswith(".ipynb"):  # a chapter notebook's prose quotes the same marked values
            unquoted = [data.decode().replace('\\"', '"') for data in (first[name], second[name])]
            assert mask(unquoted[0]) == mask(unquoted[1]), name
        differ.append(name)
    pages = {n for n in differ if n.endswith((".html", ".ipynb"))}
    assert set(differ) - pages <= set(ALLOWED_FILES)


def test_a_page_built_alone_gives_the_same_goldens(two_builds, tmp_path):
    site, ((_, whole, _), _) = two_builds
    alone = tmp_path / "book"
    shutil.copytree(site.root, alone, ignore=shutil.ignore_patterns("site"))
    for chapter in CHAPTERS[1:]:
        (alone / "docs" / f"{chapter}.md").unlink()
        shutil.rmtree(alone / "tests" / "golden" / chapter)
    result = Site(alone).build("update", BOOK_CACHE="off", BOOK_JOBS="1")
    assert result.returncode == 0, result.output
    assert "0 written (0 new), 0 stale deleted" in result.output
    page = CHAPTERS[0]
    assert goldens(alone) == {k: v for k, v in whole.items() if k.startswith(f"{page}/")}
