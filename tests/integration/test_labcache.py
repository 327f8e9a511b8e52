"""The lab render cache: what its keys follow, and that a prose edit converts no lab."""

from __future__ import annotations

import json
import re
from importlib.metadata import version

import pytest
from test_labs import DEMO, lab_site, lab_written, notebook  # noqa: F401  (fixtures)

from jaxbook import labcache

OPTIONS = {"theme": "light", "custom_template": None, "mathjax_version": 2, "no_prompt": False}


@pytest.fixture
def inputs(tmp_path):
    nb = tmp_path / "lab.ipynb"
    nb.write_text(notebook(DEMO))
    template = tmp_path / "lab.html.j2"
    template.write_text("{% extends 'mkdocs_html/notebook.html.j2' %}\n")
    return nb, template, {**OPTIONS, "custom_template": str(template)}


def test_html_key_follows_notebook_template_options_and_renderer_versions(inputs):
    nb, template, options = inputs
    renderers = "mkdocs-jupyter==0.27.0;nbconvert==7.17.2"
    key = labcache.html_key(nb, options, renderers)
    assert labcache.html_key(nb, dict(options), renderers) == key  # nothing changed
    # The dict mkdocs-jupyter passes to collect image paths is not an input.
    assert labcache.html_key(nb, {**options, "image_dependencies": {"x": "y"}}, renderers) == key

    keys = {key}
    nb.write_text(nb.read_text().replace("Square a number.", "Cube a number."))
    keys.add(labcache.html_key(nb, options, renderers))  # the executed notebook changed
    template.write_text(template.read_text() + "{# a comment #}\n")
    keys.add(labcache.html_key(nb, options, renderers))  # the template changed
    keys.add(labcache.html_key(nb, {**options, "theme": "dark"}, renderers))
    keys.add(labcache.html_key(nb, options, renderers.replace("0.27.0", "0.28.0")))
    keys.add(labcache.html_key(nb, options, renderers.replace("7.17.2", "7.17.3")))
    assert len(keys) == 6


def test_toc_key_follows_notebook_depth_and_versions(inputs):
    nb, _, _ = inputs
    key = labcache.toc_key(nb, 6, "a")
    assert labcache.toc_key(nb, 6, "a") == key
    others = {labcache.toc_key(nb, 3, "a"), labcache.toc_key(nb, 6, "b")}
    nb.write_text(nb.read_text().replace("# Lab: demo", "# Lab: renamed"))
    others.add(labcache.toc_key(nb, 6, "a"))
    assert key not in others and len(others) == 3


def test_the_key_names_the_installed_renderers():
    installed = labcache.versions()
    assert f"mkdocs-jupyter=={version('mkdocs-jupyter')}" in installed
    assert f"nbconvert=={version('nbconvert')}" in installed


def lab_counts(output: str) -> tuple[int, int]:
    found = re.search(r"bookexec: labs: (\d+) rendered from the cache, (\d+) converted", output)
    assert found, output
    return int(found[1]), int(found[2])


@pytest.mark.build
def test_a_prose_edit_converts_no_lab_and_a_lab_edit_converts_it(lab_site):  # noqa: F811
    site = lab_site
    first = site.build("update")
    assert first.returncode == 0, first.output
    assert lab_counts(first.output) == (0, 1)
    page = site.root / "site" / "labs" / "demo" / "index.html"
    before = page.read_text()

    site.page("index.md", "# Home\n\nOne more sentence.\n")
    second = site.build(BOOK_CACHE="on")
    assert second.returncode == 0, second.output
    assert lab_counts(second.output) == (1, 0)  # the lab came from the cache
    assert page.read_text() == before

    path = site.root / "docs" / "labs" / "demo.ipynb"
    path.write_text(path.read_text().replace("Square a number.", "Square any number."))
    third = site.build(BOOK_CACHE="on")
    assert third.returncode == 0, third.output
    assert lab_counts(third.output) == (0, 1)
    assert "Square any number." in page.read_text()

    cached = list((site.root / ".cache" / "bookexec" / "lab-html").glob("*.json"))
    assert cached and all(json.loads(p.read_text())["schema"] == labcache.SCHEMA for p in cached)


@pytest.mark.build
def test_book_cache_off_converts_every_time(lab_written):  # noqa: F811
    result = lab_written.build(BOOK_CACHE="off")
    assert result.returncode == 0, result.output
    assert lab_counts(result.output) == (0, 1)
    # mkdocs-jupyter's "Converting notebook (execute=False)" would contradict what happens: the
    # lab's cells ran in the book's workers; the count above says what was converted.
    assert "Converting notebook" not in result.output


def test_a_second_lab_cache_wraps_mkdocs_jupyter_once(tmp_path):
    from mkdocs_jupyter import convert

    from jaxbook.labcache import LabRenderCache

    original = getattr(convert.nb2html, "bookexec_original", convert.nb2html)
    first, second = LabRenderCache(tmp_path / "a"), LabRenderCache(tmp_path / "b")
    assert first.install() and second.install()
    assert convert.nb2html.bookexec_original is original  # wrapped once, by the last build's


def test_the_mkdocs_jupyter_internals_the_cache_wraps_are_still_there():
    """No public seam exists for the lab cache (jaxbook.labcache): it wraps two functions
    of mkdocs-jupyter's. When an upgrade renames them or changes how they are called, this
    fails, rather than the labs quietly converting on every build."""
    import inspect

    from mkdocs_jupyter import convert, plugin

    nb2html = getattr(convert.nb2html, "bookexec_original", convert.nb2html)
    toc = getattr(plugin._get_nb_toc_tokens, "bookexec_original", plugin._get_nb_toc_tokens)
    assert {"nb_path", "custom_template", "image_dependencies"} <= set(
        inspect.signature(nb2html).parameters
    )
    assert list(inspect.signature(toc).parameters) == ["fpath", "toc_depth"]
    source = inspect.getsource(plugin)  # the caller: what it passes, and to which
    assert "convert.nb2html(" in source and "_get_nb_toc_tokens(page.file" in source
