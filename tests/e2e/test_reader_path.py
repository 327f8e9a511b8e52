"""The path through the book: chapters in reading order, and a glossary and an FAQ whose every
entry links to an executed block that exists."""

from __future__ import annotations

import re

import pytest
import yaml

from bookexec._internal.discover.blocks import scan_page
from conftest import REPO

DOCS = REPO / "docs"
READING_ORDER = [
    "tracers.md",
    "captures.md",
    "retracing.md",
    "jit-in-practice.md",
    "pytrees.md",
    "control-flow.md",
    "numpy-habits.md",
    "randomness.md",
    "transforms.md",
    "custom-rules.md",
    "compose.md",
    "interpreter.md",
    "derivatives.md",
    "sharding.md",
    "collectives.md",
    "leaving-the-trace.md",
    "primitives.md",
]
BLOCK_LINK = re.compile(r"\]\(([a-z0-9-]+\.md)#block-([a-z0-9-]+)\)")


def nav_pages() -> list[str]:
    config = re.sub(r"!relative \$config_dir", "''", (REPO / "mkdocs.yml").read_text())
    found: list[str] = []

    def walk(entries):
        for entry in entries:
            value = next(iter(entry.values())) if isinstance(entry, dict) else entry
            if isinstance(value, list):
                walk(value)
            elif value.endswith(".md"):
                found.append(value)

    walk(yaml.safe_load(config)["nav"])
    return found


def block_ids(page: str) -> set[str]:
    return {block.id for block in scan_page(page, (DOCS / page).read_text(), REPO)}


def test_chapters_come_in_reading_order_with_the_census_as_an_appendix():
    chapters = [page for page in nav_pages() if page in READING_ORDER]
    assert chapters == READING_ORDER
    home = (DOCS / "index.md").read_text()
    map_of_the_book = home.split("## Map of the book", 1)[1]  # the route above it selects
    positions = [map_of_the_book.index(f"]({page})") for page in READING_ORDER]
    assert positions == sorted(positions), "the home page's map is not in reading order"


def entries(page: str, pattern: str) -> dict[str, str]:
    text = (DOCS / page).read_text()
    parts = re.split(pattern, text, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def dead_block_links(text: str) -> list[str]:
    return [
        f"{page}#block-{block}"
        for page, block in BLOCK_LINK.findall(text)
        if block not in block_ids(page)
    ]


def test_every_glossary_term_links_to_a_block_that_exists():
    terms = entries("glossary.md", r"^\*\*(.+?)\*\*")
    assert len(terms) >= 30
    assert [term for term, body in terms.items() if not BLOCK_LINK.search(body)] == []
    assert dead_block_links((DOCS / "glossary.md").read_text()) == []


def test_every_faq_answer_links_to_a_block_that_exists():
    questions = entries("faq.md", r"^## (.+)$")
    assert len(questions) >= 15
    assert [q for q, body in questions.items() if not BLOCK_LINK.search(body)] == []
    assert dead_block_links((DOCS / "faq.md").read_text()) == []


def test_the_dead_link_check_can_fail():
    assert dead_block_links("[x](tracers.md#block-no-such-block)") == [
        "tracers.md#block-no-such-block"
    ]


BUILD_TALK = re.compile(
    r"ran when the book was built|the build checks|book builds two pages|the book's record"
    r"|this book's blocks|the book's (?:own )?helper|the book's figure helper|the book captures"
    r"|the build gives the snippet|golden checks|`bookexec\.facts`",
    re.I,
)


def test_chapters_do_not_talk_about_the_build():
    said = {
        page: BUILD_TALK.findall((DOCS / page).read_text())
        for page in READING_ORDER
        if BUILD_TALK.search((DOCS / page).read_text())
    }
    assert said == {}


def test_the_build_talk_check_can_fail():
    assert BUILD_TALK.search("The book's record for JAX 0.11.2 counted 12")
    assert BUILD_TALK.search("this block's golden checks every point")


def start_route() -> str:
    home = (DOCS / "index.md").read_text()
    return home.split("## Start here", 1)[1].split("\n## ", 1)[0]


def test_the_home_page_starts_a_numpy_user_at_the_lessons_beginner_tab():
    numpy_route = re.findall(r"^- \*\*If you know NumPy.+?(?=^- |\Z)", start_route(), re.M | re.S)
    assert numpy_route, "the home page has no route for a NumPy user"
    main_line = numpy_route[0].split(": ", 1)[1].split(". ", 1)[0]
    assert main_line.startswith("[the lesson](lesson.md) (its Beginner tab")
    linked = re.findall(r"\]\(([a-z-]+\.md)\)", main_line)[1:]
    assert linked == [page for page in READING_ORDER if page in linked]  # in reading order
    assert {"tracers.md", "control-flow.md", "numpy-habits.md"} <= set(linked)
    # A route that names every chapter in order only repeats the map below it.
    assert len(linked) < len(READING_ORDER) // 2, "the NumPy route does not select"


@pytest.mark.build
def test_block_anchors_reach_the_page(built_book):
    html = (built_book / "tracers" / "index.html").read_text()
    for block in ("tracer-kinds", "if-under-grad", "grad-staged"):
        assert f'id="block-{block}"' in html
