"""The prose audit's scope: a page about the tooling is checked for versions only, by its front
matter, and the key needs a reason."""

from __future__ import annotations

from jaxbook import audit

PAGE = "The suite takes about 50 minutes on 2 cores with JAX 0.12.0.1.\n"


def run(meta: dict[str, object]) -> list[str]:
    only, wrong = audit.versions_only(meta, "guide/x.md")
    return wrong + audit.audit_page(
        "guide/x.md", PAGE, set(), {"50"}, set(), [], set(), only_versions=only
    )


def test_a_chapter_page_is_audited_for_numbers_a_block_records():
    problems = run({})
    assert any("number '50' typed by hand; a block records it" in p for p in problems), problems
    assert any("version '0.12.0.1' typed by hand" in p for p in problems), problems


def test_a_tooling_page_is_audited_for_versions_only():
    problems = run({audit.VERSIONS_ONLY: "the guide describes the engine"})
    assert problems == [
        "docs/guide/x.md:1: version '0.12.0.1' typed by hand: insert it with "
        "{{fact:block-id.name}}, or list it under prose-audit in the page's "
        "front matter with a reason"
    ]


def test_the_key_needs_a_reason():
    problems = run({audit.VERSIONS_ONLY: ""})
    assert "docs/guide/x.md: front matter prose-audit-versions-only needs a reason" in problems[0]
    assert any("number '50'" in p for p in problems)  # without a reason, the full audit


def test_a_stepper_mapping_is_a_picture_of_the_program_not_values_the_prose_quotes() -> None:
    # a stepper's facts hold the jaxpr's literals, line numbers and primitive names: none of
    # them is a value typed prose should take from a fact (issue 40)
    from bookexec.goldens.measured import Fact
    from bookexec.render.stepper import PREFIX

    mapping = PREFIX + '{"jaxpr": [{"line": 23, "text": "b:f32[8] = mul 1.5:f32[] a"}]}'
    facts = [
        Fact("steps", "exact", mapping),
        Fact("steps_lines", "exact", "23: dot_general add tanh"),
        Fact("count", "exact", 42),
    ]
    numbers, names = audit.produced([], facts)
    assert numbers == {"42"}
    assert not {"dot_general", "tanh", "mul"} & names
