"""The trace stepper in a real browser (Debian's chromium), on the book's own built pages.

Its states (the current line, the equations it recorded, the prints from their step on), the
buttons and the arrow keys, the whole stepper with JavaScript off, the dark palette, phone
width and reduced motion. What each step must show is read from the page's own static
labels, which the golden checked: the script must agree with them. Screenshots are saved in
the test's temporary folder, and their paths printed.
"""

from __future__ import annotations

import re

import pytest

from conftest import static_server, visit

pytestmark = [pytest.mark.build, pytest.mark.browser]

FIRST = "figure#stepper-scalar-jaxpr-steps"  # the tracers chapter's first function
PRINTS = "figure#stepper-print-once-steps"
UNROLLED = "figure#stepper-loop-steps-unrolled"

# The stepper's state as the reader sees it: the marked line, the highlighted equations, the
# number of equations the page labels with the marked line, the live description.
STATE = """figure => {
  const current = figure.querySelector("li.eb-src.eb-current");
  const line = current ? current.dataset.line : null;
  return {
    current: line,
    marked: figure.querySelectorAll("li.eb-src.eb-current").length,
    hits: Array.from(figure.querySelectorAll(".eb-jaxpr li.eb-eqn.eb-hit"), li => li.dataset.line),
    labelled: figure.querySelectorAll(`.eb-jaxpr li.eb-eqn[data-line="${line}"]`).length,
    said: current ? current.querySelector(".eb-what").textContent : "",
    status: figure.querySelector(".eb-status").textContent,
  };
}"""


@pytest.fixture(scope="module")
def served(built_book):
    with static_server(built_book) as base:
        yield base


@pytest.fixture
def new_page(browser):
    contexts = []

    def make(**options):
        options.setdefault("viewport", {"width": 1280, "height": 1000})
        context = browser.new_context(service_workers="block", **options)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


def shot(locator, path) -> None:
    locator.screenshot(path=str(path))
    print(f"screenshot: {path}")


def state(figure) -> dict:
    return figure.evaluate(STATE)


def test_each_step_marks_its_line_and_the_equations_it_recorded(served, new_page, tmp_path):
    page = new_page()
    visit(page, served + "tracers/")
    figure = page.locator(FIRST)
    previous = figure.get_by_role("button", name="Previous line")
    following = figure.get_by_role("button", name="Next line")
    assert figure.locator(".eb-status").get_attribute("aria-live") == "polite"
    numbers = figure.locator("li.eb-src").evaluate_all("els => els.map(e => e.dataset.line)")
    assert len(numbers) >= 3 and previous.is_disabled()
    recorded_nothing = recorded_some = 0
    for i, number in enumerate(numbers):
        if i:
            following.click()
        now = state(figure)
        assert now["current"] == number and now["marked"] == 1, now
        assert now["hits"] == [number] * now["labelled"], now  # exactly its own equations
        assert now["said"] in now["status"] and f"line {number}" in now["status"], now
        if now["labelled"] == 0:
            assert "records nothing" in now["said"]
            recorded_nothing += 1
        else:
            recorded_some += 1
        if i == 1:
            shot(figure, tmp_path / "stepper-light.png")
    assert recorded_nothing and recorded_some
    assert following.is_disabled()
    previous.click()
    assert state(figure)["current"] == numbers[-2]


def test_the_arrow_keys_step_and_the_focus_shows(served, new_page):
    page = new_page()
    visit(page, served + "tracers/")
    figure = page.locator(FIRST)
    numbers = figure.locator("li.eb-src").evaluate_all("els => els.map(e => e.dataset.line)")
    figure.locator("ol.eb-source").focus()
    for key, index in [("ArrowDown", 1), ("ArrowRight", 2), ("End", -1), ("ArrowUp", -2)]:
        page.keyboard.press(key)
        assert state(figure)["current"] == numbers[index], key
    page.keyboard.press("Home")
    assert state(figure)["current"] == numbers[0]
    page.keyboard.press("Shift+Tab")  # back to the Next button, which shows its focus
    focused = page.evaluate(
        "() => [document.activeElement.textContent,"
        " getComputedStyle(document.activeElement).outlineStyle]"
    )
    assert focused == ["Next line", "solid"]


def test_a_print_shows_from_the_step_it_fired_at_and_the_calls_say_what_ran(
    served, new_page, tmp_path
):
    page = new_page()
    visit(page, served + "tracers/")
    figure = page.locator(PRINTS)
    printed = figure.locator(".eb-prints li")
    assert printed.count() == 1
    fired_at = printed.get_attribute("data-line")
    numbers = figure.locator("li.eb-src").evaluate_all("els => els.map(e => e.dataset.line)")
    figure.locator("ol.eb-source").focus()
    for number in numbers[: numbers.index(fired_at)]:
        assert state(figure)["current"] == number
        assert printed.is_hidden()  # not yet traced
        page.keyboard.press("ArrowDown")
    assert state(figure)["current"] == fired_at and printed.is_visible()
    assert "eb-hit" in (printed.get_attribute("class") or "")
    assert "records nothing, prints" in state(figure)["status"]
    # the first call traces, the same shape again runs what was compiled, a new shape traces
    calls = figure.locator(".eb-calls li")
    kinds = calls.evaluate_all("els => els.map(e => e.className)")
    assert kinds == ["eb-traced", "eb-cached", "eb-traced"]
    assert "nothing traced, nothing printed" in calls.nth(1).inner_text()
    shot(figure, tmp_path / "stepper-print.png")


def test_a_loop_that_unrolls_records_nothing_on_its_for_line(served, new_page):
    page = new_page()
    visit(page, served + "control-flow/")
    figure = page.locator(UNROLLED)
    loop = figure.locator("li.eb-src", has_text="for _ in range")
    assert loop.locator(".eb-what").inner_text() == "records nothing"
    body = figure.locator("li.eb-src", has_text="h = cell(h)")
    line = body.get_attribute("data-line")
    # every unrolled copy is labelled with the body's line
    copies = figure.locator(f'.eb-jaxpr li.eb-eqn[data-line="{line}"]').count()
    assert copies >= 6 and f"records {copies} equations" in body.inner_text()


def test_without_javascript_the_stepper_is_whole(served, new_page, tmp_path):
    page = new_page(java_script_enabled=False)
    visit(page, served + "tracers/")
    figure = page.locator(FIRST)
    assert figure.get_by_role("button").count() == 0
    equations = figure.locator(".eb-jaxpr li.eb-eqn")
    assert equations.count() >= 3
    labels = equations.locator(".eb-label").all_inner_texts()
    assert all(label.startswith("line ") or label == "no line" for label in labels), labels
    for li in figure.locator("li").all():
        assert li.is_visible()
    said = figure.locator("li.eb-src .eb-what").all_inner_texts()
    assert len(said) == figure.locator("li.eb-src").count() and all(said)
    shot(figure, tmp_path / "stepper-no-javascript.png")


def test_the_dark_palette_marks_the_line_in_its_own_colours(served, new_page, tmp_path):
    colours = {}
    for scheme in ("light", "dark"):
        page = new_page(color_scheme=scheme)
        visit(page, served + "tracers/")
        expected = "slate" if scheme == "dark" else "default"
        assert page.locator("body").get_attribute("data-md-color-scheme") == expected
        figure = page.locator(FIRST)
        figure.get_by_role("button", name="Next line").click()
        # the mark fades in over 0.2 s: read the colours once the fade has ended, not during it
        colours[scheme] = figure.evaluate(
            """async figure => {
                 await Promise.all(figure.getAnimations({subtree: true}).map(a => a.finished));
                 return [".eb-current", ".eb-hit", "ol.eb-source"].map(
                   s => getComputedStyle(figure.querySelector(s)).backgroundColor).concat(
                   [getComputedStyle(figure).getPropertyValue("--eb-current").trim()]);
               }"""
        )
        assert colours[scheme][0] == colours[scheme][3], colours  # the mark shows its full colour
        shot(figure, tmp_path / f"stepper-{scheme}.png")
    assert colours["light"][2] != colours["dark"][2], colours  # the code background follows
    assert colours["light"][0] != colours["dark"][0], colours


def test_at_phone_width_the_panes_stack_and_nothing_overflows_the_page(served, new_page, tmp_path):
    page = new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    visit(page, served + "tracers/")
    figure = page.locator(FIRST)
    panes = figure.locator(".eb-pane")
    first, second = panes.nth(0).bounding_box(), panes.nth(1).bounding_box()
    assert first and second and second["y"] >= first["y"] + first["height"] - 1
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    figure.get_by_role("button", name="Next line").tap()
    assert state(figure)["marked"] == 1
    shot(figure, tmp_path / "stepper-phone.png")


def test_reduced_motion_turns_the_transitions_off(served, new_page):
    durations = {}
    for motion in ("no-preference", "reduce"):
        page = new_page(reduced_motion=motion)
        visit(page, served + "tracers/")
        durations[motion] = page.locator(FIRST).evaluate(
            "figure => getComputedStyle(figure.querySelector('li.eb-src')).transitionDuration"
        )
    assert durations["reduce"].split(",")[0].strip() == "0s", durations
    assert durations["no-preference"] != durations["reduce"], durations


COND = "figure#stepper-cond-vmap-steps"  # control-flow's cond: one line records 9 equations
# What of a step is out of the reader's sight: the marked line and the equations it recorded
# (in the window, under the header, and inside their list's own box), and the Next button.
IN_VIEW = """figure => {
  const top = document.querySelector(".md-header").getBoundingClientRect().bottom;
  const seen = (el, box) => {
    const r = el.getBoundingClientRect();
    const b = box ? box.getBoundingClientRect() : {top: top, bottom: innerHeight};
    return r.top >= Math.max(top, b.top) - 1 && r.bottom <= Math.min(innerHeight, b.bottom) + 1;
  };
  const current = figure.querySelector("li.eb-src.eb-current");
  const hits = [...figure.querySelectorAll(".eb-jaxpr li.eb-eqn.eb-hit")];
  return {
    line: current.dataset.line,
    hits: hits.length,
    hidden: [current, ...hits].filter((li) => !seen(li, li.closest("ol")))
      .map((li) => li.textContent.trim().slice(0, 40)),
    next: seen(figure.querySelector(".eb-next"), null),
  };
}"""


def test_clicking_a_line_steps_to_it(served, new_page):
    page = new_page()
    visit(page, served + "tracers/")
    figure = page.locator(FIRST)
    lines = figure.locator("li.eb-src")
    for index in (lines.count() - 1, 0, 1):
        lines.nth(index).click()
        assert state(figure)["current"] == lines.nth(index).get_attribute("data-line"), index


def test_on_a_phone_next_shows_the_line_and_its_equations_together(served, new_page, tmp_path):
    page = new_page(
        viewport={"width": 390, "height": 667},
        is_mobile=True,
        has_touch=True,
        reduced_motion="reduce",
    )
    visit(page, served + "control-flow/")
    figure = page.locator(COND)
    figure.scroll_into_view_if_needed()
    steps, most = figure.locator("li.eb-src").count(), 0
    for _ in range(steps - 1):
        figure.get_by_role("button", name="Next line").tap()
        seen = figure.evaluate(IN_VIEW)
        assert seen["hidden"] == [] and seen["next"], seen
        most = max(most, seen["hits"])
    assert most >= 5, most  # a step whose equations would not fit under its line unscrolled
    shot(figure, tmp_path / "stepper-phone-cond.png")


def test_the_caption_speaks_to_the_reader(served, new_page):
    page = new_page()
    visit(page, served + "control-flow/")
    for caption in page.locator("figure.executed-book-stepper figcaption").all_inner_texts():
        assert not re.search(r"golden|build|block", caption, re.I), caption
        assert "line" in caption, caption
