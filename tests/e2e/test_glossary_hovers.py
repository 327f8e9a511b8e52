"""Hover definitions in the built book, in Debian's Chromium (issue 40): on a chapter, the first
use of a glossary term shows a card with the glossary's definition and a "taught in" link, on
hover, on keyboard focus (Escape closes it) and on a tap at phone width, legible in the light
and the dark palette; with JavaScript off the term is a plain link to its glossary entry.

Screenshots are written to the test's temporary folder and their paths printed (`pytest -s`).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bookexec._internal.render import glossary
from conftest import REPO, static_server, visit

pytestmark = [pytest.mark.build, pytest.mark.browser]

CHAPTER = "tracers/"
TERM = "jaxpr"
SELECTOR = f'a.executed-book-term[data-term="{TERM}"]'


def expected_card() -> tuple[str, str]:
    """The start of the entry's definition as a reader reads it, and where it is taught, from
    the glossary's source: an edit of the entry changes what the card must show."""
    entry = {e.slug: e for e in glossary.parse((REPO / "docs" / "glossary.md").read_text())}[TERM]
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", entry.definition).replace("`", "")
    assert entry.taught is not None
    page, _, anchor = entry.taught[1].partition("#")
    return " ".join(text.split()[:8]), f"/{page.removesuffix('.md')}/#{anchor}"


def _contrast(page, selector: str) -> float:
    """The contrast ratio of an element's text on its background (WCAG's formula)."""
    return page.eval_on_selector(
        selector,
        """(el) => {
          const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
          const lum = (c) => {
            const [r, g, b] = rgb(c).map((v) => {
              v /= 255;
              return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
            });
            return 0.2126 * r + 0.7152 * g + 0.0722 * b;
          };
          const style = getComputedStyle(el);
          const [a, b] = [lum(style.color), lum(style.backgroundColor)].sort((x, y) => y - x);
          return (a + 0.05) / (b + 0.05);
        }""",
    )


def check_hover_cards(site_dir: Path, browser, shots: Path) -> list[str]:
    """Every check of this file against one built site; returns the screenshots' paths."""
    words, taught = expected_card()
    saved = []
    with static_server(site_dir) as base:
        backgrounds = {}
        for scheme in ("light", "dark"):
            context = browser.new_context(
                viewport={"width": 1280, "height": 900}, color_scheme=scheme
            )
            page = context.new_page()
            visit(page, base + CHAPTER)
            term = page.locator(SELECTOR)
            assert term.count() == 1, f"no marked '{TERM}' on {CHAPTER}"
            card_id = term.get_attribute("aria-describedby")
            card = page.locator(f"#{card_id}")
            assert card.get_attribute("role") == "tooltip"
            assert not card.is_visible()  # until asked
            term.hover()
            card.wait_for(state="visible", timeout=5000)
            assert words in " ".join(card.inner_text().split())
            link = card.locator("a.executed-book-card-taught")
            assert link.inner_text().startswith("taught in ")
            assert link.evaluate("(a) => new URL(a.href).pathname + new URL(a.href).hash") == taught
            assert _contrast(page, f"#{card_id}") >= 4.5
            backgrounds[scheme] = card.evaluate("(el) => getComputedStyle(el).backgroundColor")
            shot = shots / f"hover-{scheme}.png"
            page.screenshot(path=str(shot))
            saved.append(str(shot))
            page.mouse.move(0, 0)
            card.wait_for(state="hidden", timeout=5000)
            context.close()
        assert backgrounds["light"] != backgrounds["dark"], backgrounds

        # The keyboard: Tab reaches the term, its card opens, Escape closes it.
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        visit(page, base + CHAPTER)
        card = page.locator(f"#{page.locator(SELECTOR).get_attribute('aria-describedby')}")
        for _ in range(400):
            page.keyboard.press("Tab")
            if page.evaluate(f"document.activeElement.matches('{SELECTOR}')"):
                break
        else:
            raise AssertionError(f"Tab never reached the term '{TERM}'")
        card.wait_for(state="visible", timeout=5000)
        shot = shots / "hover-keyboard.png"
        page.screenshot(path=str(shot))
        saved.append(str(shot))
        page.keyboard.press("Escape")
        card.wait_for(state="hidden", timeout=5000)
        context.close()

        # A phone: a tap shows the card, inside the screen, and does not leave the page.
        context = browser.new_context(
            viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
        )
        page = context.new_page()
        visit(page, base + CHAPTER)
        term = page.locator(SELECTOR)
        card = page.locator(f"#{term.get_attribute('aria-describedby')}")
        term.scroll_into_view_if_needed()
        term.tap()
        card.wait_for(state="visible", timeout=5000)
        box = card.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
        assert page.url == base + CHAPTER
        shot = shots / "hover-phone.png"
        page.screenshot(path=str(shot))
        saved.append(str(shot))
        context.close()

        # JavaScript off: the term is a link to its entry, and the card stays out of sight.
        context = browser.new_context(java_script_enabled=False)
        page = context.new_page()
        visit(page, base + CHAPTER)
        term = page.locator(SELECTOR)
        assert not page.locator(f"#{term.get_attribute('aria-describedby')}").is_visible()
        term.click()
        page.wait_for_url(re.compile(rf"/glossary/#{TERM}$"))
        assert page.locator(f"#{TERM}").count() == 1
        context.close()
    return saved


def test_a_terms_card_shows_its_definition_on_hover_focus_and_tap_in_both_palettes(
    built_book, browser, tmp_path
):
    for path in check_hover_cards(built_book, browser, tmp_path):
        print(f"screenshot: {path}")
