"""Masks (`bookexec._internal.goldens.masks`): an author's rule applies where its globs say, in
order, and a bad one is named before any build runs; the engine's defaults apply only to the figures
they are for, unless turned off."""

from __future__ import annotations

import pytest

from bookexec._internal.goldens import masks
from bookexec._internal.settings import read

pytestmark = pytest.mark.engine


def _rules(*options: dict[str, object]) -> tuple[masks.Mask, ...]:
    return read({"masks": list(options), "default_masks": False}, {}).masks


def test_the_defaults_come_first_unless_turned_off():
    author = {"pattern": "x", "replace": "y"}
    assert read({"masks": [author]}, {}).masks[: len(masks.DEFAULTS)] == masks.DEFAULTS
    assert len(read({"masks": [author]}, {}).masks) == len(masks.DEFAULTS) + 1
    assert len(_rules(author)) == 1


UUID = "8b2e897b-37d1-41ff-9455-eaf40d28c11b"


def test_the_defaults_touch_only_the_figures_they_are_for():
    plotly = f'<div id="{UUID}" class="plotly-graph-div"></div><script>newPlot("{UUID}", [])'
    assert masks.apply(plotly, masks.DEFAULTS, "p.md", "b") == (
        '<div id="(plotly-id)" class="plotly-graph-div"></div><script>newPlot("(plotly-id)", [])'
    )
    svg = (
        "<dc:date>2026-12-06T08:57:59</dc:date><dc:title>Matplotlib v3.11.2</dc:title>"
        '<path id="m4725232bc7"/><use xlink:href="#m4725232bc7"/><g clip-path="url(#p1c58c199a4)">'
    )
    assert masks.apply(svg, masks.DEFAULTS, "p.md", "b") == (
        "<dc:date>(date)</dc:date><dc:title>Matplotlib v3.11.2</dc:title>"
        '<path id="m(id)"/><use xlink:href="#m(id)"/><g clip-path="url(#p(id))">'
    )
    # The same strings in any other output are what the block printed: kept.
    for other in (f'print("{UUID}")', '<dc:date>today</dc:date> id="p1c58c199a4"'):
        assert masks.apply(other, masks.DEFAULTS, "p.md", "b") == other


def test_a_rule_without_globs_masks_every_block():
    (rule,) = _rules({"pattern": r"id=\d+", "replace": "id=N"})
    assert masks.apply("a id=12 b id=3", (rule,), "any/page.md", "block-1") == "a id=N b id=N"


def test_pages_and_blocks_are_globs_and_both_must_match():
    rule = _rules({"pattern": "x", "replace": "y", "pages": ["plots/*.md"], "blocks": ["figure-*"]})
    assert masks.apply("x", rule, "plots/one.md", "figure-2") == "y"
    assert masks.apply("x", rule, "plots/one.md", "table") == "x"  # another block
    assert masks.apply("x", rule, "index.md", "figure-2") == "x"  # another page


def test_rules_apply_in_order_and_a_group_is_kept():
    rules = _rules(
        {"pattern": r"(size) \d+", "replace": r"\1 N"},
        {"pattern": r"size N", "replace": "masked"},
    )
    assert masks.apply("size 4096", rules, "p.md", "b") == "masked"


def test_a_bad_pattern_or_replacement_is_named():
    assert "is not a regular expression" in (masks.problem("(", "") or "")
    assert "invalid group reference 2" in (masks.problem("a(b)", r"\2") or "")
    assert masks.problem("a(b)", r"\1") is None


@pytest.mark.parametrize(
    ("rule", "said"),
    [
        ({"pattern": "[", "replace": ""}, "pattern '[' is not a regular expression"),
        ({"pattern": "a", "replace": r"\1"}, r"replace '\\1' does not fit the pattern 'a'"),
        ({"pattern": "a"}, "Required configuration not provided"),
        ({"pattern": "a", "replace": "b", "pages": "x.md"}, "Expected a list of items"),
    ],
)
def test_a_bad_rule_is_refused_by_the_config_check_naming_the_option(rule, said):
    from bookexec._internal.plugin import BookConfig

    config = BookConfig()
    config.load_dict({"masks": [rule]})
    failed, _ = config.validate()
    assert [name for name, _ in failed] == ["masks"], failed
    assert said in str(failed[0][1]), failed


def test_good_rules_pass_the_config_check_and_reach_the_settings():
    from bookexec._internal.plugin import BookConfig

    config = BookConfig()
    config.load_dict({"masks": [{"pattern": "(a)", "replace": r"\1", "blocks": ["b-*"]}]})
    failed, _ = config.validate()
    assert failed == []
    *defaults, rule = read(dict(config), {}).masks
    assert tuple(defaults) == masks.DEFAULTS  # `default_masks` is on unless the book says
    assert (rule.pattern.pattern, rule.replace, rule.pages, rule.blocks) == (
        "(a)",
        r"\1",
        (),
        ("b-*",),
    )


def test_default_masks_off_passes_the_config_check_and_leaves_the_authors_rules():
    from bookexec._internal.plugin import BookConfig

    config = BookConfig()
    config.load_dict({"default_masks": False})
    failed, _ = config.validate()
    assert failed == []
    assert read(dict(config), {}).masks == ()
