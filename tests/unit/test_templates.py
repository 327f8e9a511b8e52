"""The theme's compiled templates kept across the rebuilds of `mkdocs serve`."""

from __future__ import annotations

import jinja2
import pytest

from bookexec._internal.serve.templates import TemplateCache

pytestmark = pytest.mark.engine


class Counting(jinja2.Environment):
    """An environment that counts the templates it compiles."""

    compiled = 0

    def compile(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        Counting.compiled += 1
        return super().compile(*args, **kwargs)


def fresh(folder, **options) -> Counting:
    """A new environment over the same templates, as MkDocs makes one for every build."""
    return Counting(loader=jinja2.FileSystemLoader(str(folder)), **options)


def test_a_later_build_compiles_nothing_unless_a_template_or_the_options_changed(tmp_path):
    (tmp_path / "page.html").write_text("{% block body %}Hello {{ name }}{% endblock %}")
    cache = TemplateCache()
    Counting.compiled = 0
    first = cache.attach(fresh(tmp_path))
    assert first.get_template("page.html").render(name="one") == "Hello one"
    assert Counting.compiled == 1
    second = cache.attach(fresh(tmp_path))
    assert second.get_template("page.html").render(name="two") == "Hello two"
    assert Counting.compiled == 1  # the compiled code was reused

    (tmp_path / "page.html").write_text("{% block body %}Goodbye {{ name }}{% endblock %}")
    third = cache.attach(fresh(tmp_path))
    assert third.get_template("page.html").render(name="three") == "Goodbye three"
    assert Counting.compiled == 2  # its source changed: compiled again

    # The same source under other options means other code: `{{ name }}` is text there.
    other = cache.attach(fresh(tmp_path, variable_start_string="[[", variable_end_string="]]"))
    assert other.get_template("page.html").render(name="four") == "Goodbye {{ name }}"
    assert Counting.compiled == 3
