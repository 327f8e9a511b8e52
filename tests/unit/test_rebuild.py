"""The page graph behind `mkdocs serve --dirty` (`bookexec._internal.serve.rebuild`)."""

from __future__ import annotations

import logging
import os
from types import SimpleNamespace

import pytest
from mkdocs.structure.files import File

from bookexec._internal.pipeline.run import PENDING, digest
from bookexec._internal.plugin import DirtyNotice
from bookexec._internal.render import prose
from bookexec._internal.serve import rebuild
from bookexec._internal.serve.search import merged_index

pytestmark = pytest.mark.engine


def inputs(page: str, text: str = "# Page\n", **digests: str) -> rebuild.Inputs:
    made = rebuild.page_inputs(page, text, [], {}, {}, {}, "", f"docs/{page}")
    return rebuild.Inputs(page, {**made.digests, **digests}, made.files)


SITE = rebuild.site_key("site_name: book\n", ["a.md", "b.md"], {"a.md": "", "b.md": ""})


def test_includes_are_found_in_each_form_pymdownx_snippets_reads():
    markdown = (
        '--8<-- "snippets/a/one.py"\n'
        "    --8<-- 'snippets/a/two.py:3:9'\n"
        "--8<--\n"
        "snippets/b/three.py\n"
        "; snippets/skipped.py\n"
        "--8<--\n"
    )
    assert rebuild.included(markdown) == [
        "snippets/a/one.py",
        "snippets/a/two.py",
        "snippets/b/three.py",
    ]


def test_quoted_blocks_are_other_pages_facts_and_figures_not_reserved_blocks():
    markdown = (
        "{{fact:own.n}} and {{fact:other.md#count.n|code}}\n"
        "{{figure:plots.md#speed.chart}}\n"
        "{{fact:versions.jax}} {{fact:nav.other}} {{fact:old.md#b.n@0.10.2}}\n"
    )
    assert prose.quoted_blocks(markdown, "here.md") == {
        ("here.md", "own"),
        ("other.md", "count"),
        ("plots.md", "speed"),
    }


def test_the_first_build_and_a_build_after_a_failure_render_everything():
    graph = rebuild.Graph()
    pages = {"a.md": inputs("a.md"), "b.md": inputs("b.md")}
    assert (
        graph.decide(SITE, pages, {}).line(2) == "bookexec: rendering every page (the first build)"
    )
    for made in pages.values():
        graph.rendered_page(made)
    assert graph.decide(SITE, pages, {}).pages == {}
    graph.forget()
    decision = graph.decide(SITE, pages, {})
    assert decision.everything and decision.reason == "the last build failed"
    assert not graph.decide(SITE, pages, {}).everything  # once


def test_only_the_page_whose_inputs_changed_renders_again_and_the_log_names_what_changed():
    graph = rebuild.Graph()
    pages = {"a.md": inputs("a.md"), "b.md": inputs("b.md")}
    graph.decide(SITE, pages, {"docs/a.md": 1, "docs/b.md": 1})
    for made in pages.values():
        graph.rendered_page(made)
    edited = {**pages, "b.md": inputs("b.md", "# Page\n\nOne more word.\n")}
    decision = graph.decide(SITE, edited, {"docs/a.md": 1, "docs/b.md": 2})
    assert not decision.everything
    assert decision.pages == {"b.md": ["prose"]}
    assert decision.line(2) == "bookexec: rendering 1 of 2 pages again: b.md (prose)"


def test_a_run_state_quoted_from_another_page_renders_the_quoting_page():
    graph = rebuild.Graph()
    before = inputs("q.md").used("", {"source.md": PENDING})
    graph.decide(SITE, {"q.md": before}, {})
    graph.rendered_page(before)
    assert graph.decide(SITE, {"q.md": before}, {}).pages == {}
    ended = inputs("q.md").used("", {"source.md": digest("live output")})
    assert graph.decide(SITE, {"q.md": ended}, {}).pages == {"q.md": ["quoted"]}


def test_a_change_of_the_config_the_nav_or_a_title_renders_everything_and_says_which():
    graph = rebuild.Graph()
    pages = {"a.md": inputs("a.md")}
    graph.decide(SITE, pages, {})
    graph.rendered_page(pages["a.md"])
    nav = rebuild.site_key("site_name: book\n", ["b.md", "a.md"], {"a.md": "", "b.md": ""})
    assert graph.decide(nav, pages, {}).reason == "the nav changed"
    both = rebuild.site_key("site_name: two\n", ["a.md"], {"a.md": "", "b.md": ""})
    assert graph.decide(both, pages, {}).reason == "mkdocs.yml and the nav changed"
    titled = rebuild.site_key("site_name: two\n", ["a.md"], {"a.md": "New", "b.md": ""})
    assert graph.decide(titled, pages, {}).reason == "the pages or their titles changed"


def test_a_changed_file_no_page_reads_renders_everything_and_says_which():
    graph = rebuild.Graph()
    pages = {"a.md": inputs("a.md")}
    graph.decide(SITE, pages, {"docs/a.md": 1, "snippets/x.txt": 1})
    graph.rendered_page(pages["a.md"])
    decision = graph.decide(SITE, pages, {"docs/a.md": 1, "snippets/x.txt": 2, "snippets/y": 1})
    assert decision.everything
    assert decision.reason == "snippets/x.txt and 1 more changed, and no page is known to read it"
    # A file known to change no page (an asset under docs/) is placed.
    graph.decide(SITE, pages, {"docs/a.md": 1, "docs/logo.png": 1}, known={"docs/logo.png"})
    assert not graph.decide(
        SITE, pages, {"docs/a.md": 1, "docs/logo.png": 2}, known={"docs/logo.png"}
    ).everything


def test_a_page_made_older_is_one_mkdocs_dirty_build_renders(tmp_path):
    docs, site = tmp_path / "docs", tmp_path / "site"
    docs.mkdir()
    (docs / "a.md").write_text("# A\n")
    page = File("a.md", str(docs), str(site), use_directory_urls=True)
    os.makedirs(os.path.dirname(page.abs_dest_path))
    with open(page.abs_dest_path, "w") as written:
        written.write("<html></html>")
    assert not page.is_modified()  # written after its source: a dirty build skips it
    rebuild.make_older(rebuild.Path(page.abs_dest_path))
    assert page.is_modified()
    rebuild.make_older(tmp_path / "never-written" / "index.html")  # no error


def test_snapshot_lists_watched_files_relative_to_the_book(tmp_path):
    (tmp_path / "docs" / "__pycache__").mkdir(parents=True)
    (tmp_path / "docs" / "a.md").write_text("a")
    (tmp_path / "docs" / "__pycache__" / "x.pyc").write_text("")
    (tmp_path / "mkdocs.yml").write_text("")
    found = rebuild.snapshot(tmp_path, [tmp_path / "docs", tmp_path / "mkdocs.yml"])
    assert sorted(found) == ["docs/a.md", "mkdocs.yml"]
    assert rebuild.changed_files(found, {**found, "docs/a.md": 0}) == ["docs/a.md"]


def test_titles_the_nav_gives_and_those_a_page_gives():
    nav = [{"Home": "index.md"}, {"Part": [{"One": "one.md"}, "two.md"]}]
    assert rebuild.titled_in(nav) == {"index.md", "one.md"}
    assert rebuild.title_of("---\ntitle: Meta\n---\n# Heading\n") == "Meta"
    assert rebuild.title_of("Intro\n\n# Heading\n") == "Heading"


def test_the_dirty_notice_alone_is_dropped():
    notice = DirtyNotice()
    record = SimpleNamespace(getMessage=lambda: "A 'dirty' build is being performed, this ...")
    other = SimpleNamespace(getMessage=lambda: "Documentation built in 0.1 seconds")
    assert notice.filter(record) is False  # type: ignore[arg-type]
    assert notice.filter(other) is True  # type: ignore[arg-type]
    notice.install()
    try:
        assert notice in logging.getLogger("mkdocs.commands.build").filters
    finally:
        notice.remove()
    assert notice not in logging.getLogger("mkdocs.commands.build").filters


def material_writes(previous, entries):
    """What Material's search plugin writes after a dirty build that indexed `entries`, with
    the index it kept from the last build: its own code, run here."""
    import json

    from material.plugins.search.plugin import SearchIndex

    options = {"lang": ["en"], "separator": " ", "pipeline": [], "fields": {}}
    prev = SearchIndex(**options)
    prev.entries = list(previous)
    made = SearchIndex(**options)
    made.entries = list(entries)
    return json.loads(made.generate_search_index(prev))["docs"]


def entries(url, *texts):
    return [{"location": f"{url}#{i}" if i else url, "text": t} for i, t in enumerate(texts)]


@pytest.mark.needs_book
def test_the_search_index_after_a_dirty_build_is_a_full_builds():
    home, one, two, three = (
        entries("", "home"),
        entries("one/", "1", "1b"),
        entries("two/", "2"),
        entries("three/", "3"),
    )
    full = home + one + two + three
    new_one, new_two = entries("one/", "1 edited"), entries("two/", "2 edited", "2 more")
    # Two pages rendered: Material keeps the second one's old entries beside its new ones.
    written = material_writes(full, new_one + new_two)
    assert two[0] in written and new_two[0] in written  # "2" is stale, still findable
    merged = merged_index(full, written, {"one/", "two/"})
    assert sorted(map(str, merged)) == sorted(map(str, home + new_one + new_two + three))
    # The home page among them: Material drops every other page.
    new_home = entries("", "home edited")
    written = material_writes(merged, new_home + new_two)
    assert len(written) == 3
    merged = merged_index(merged, written, {"", "two/"})
    assert sorted(map(str, merged)) == sorted(map(str, new_home + new_one + new_two + three))
    # One page: Material's own merge is right, and kept.
    written = material_writes(merged, three)
    assert sorted(map(str, merged_index(merged, written, {"three/"}))) == sorted(map(str, written))
    assert merged_index(None, written, {"three/"}) == written  # the first build
