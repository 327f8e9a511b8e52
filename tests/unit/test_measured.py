"""Measured values: bands and claims judged on injected values, and the recording API itself."""

from __future__ import annotations

import gc
import time

import pytest

from bookexec import facts as api
from bookexec._internal.goldens import measured
from bookexec._internal.goldens.compare import compare
from bookexec._internal.goldens.measured import Claim, Fact
from bookexec._internal.pipeline.judge import shown

pytestmark = pytest.mark.engine


def timing(name: str, value: float, band: float = 5.0) -> Fact:
    return Fact(name, "timing", value, band)


@pytest.mark.parametrize(
    ("now", "noted"),
    [(2.0, False), (9.9, False), (10.1, True), (0.41, False), (0.39, True)],
)
def test_a_timing_outside_its_band_is_noted_never_drift(now, noted):
    golden = [timing("compile", 2.0)]
    notes = measured.band_notes(golden, [timing("compile", now)])
    assert bool(notes) is noted
    if noted:
        assert "timing compile" in notes[0] and "measured by this build" in notes[0]
        assert "not drift" in notes[0]


def test_a_block_can_set_its_own_band():
    golden = [timing("compile", 2.0, band=1.5)]
    assert measured.band_notes(golden, [timing("compile", 2.9, band=1.5)]) == []
    assert measured.band_notes(golden, [timing("compile", 3.1, band=1.5)]) != []


def test_a_golden_timed_on_another_machine_never_fails_the_check(tmp_path):
    """Fifty times slower than the golden, and still ok: only the claim is judged."""
    args = (tmp_path, "p.md", "b", "snippets/p/b.py", "took ⟦t⟧\n")
    claim = [Claim("slow", ">", "t")]
    fast = [timing("t", 0.01), timing("slow", 1.0)]
    written = compare(*args, fast, claim)
    written.path.parent.mkdir(parents=True)
    written.path.write_text(written.actual)
    slower = compare(*args, [timing("t", 0.5), timing("slow", 50.0)], claim)
    assert slower.status == "ok" and slower.reasons == []
    assert len(slower.moved) == 2 and "not drift" in slower.moved[0]
    broken = compare(*args, [timing("t", 0.01), timing("slow", 0.005)], claim)
    assert broken.status == "drifted" and broken.broken


@pytest.mark.parametrize(
    ("speedup", "holds"), [(20.0, True), (19.99, False), (400.0, True), (1.0, False)]
)
def test_a_claim_against_a_number(speedup, holds):
    facts = [Fact("speedup", "ratio", speedup, 5.0)]
    broken = measured.broken_claims(facts, [Claim("speedup", ">=", 20.0)])
    assert (broken == []) is holds
    if not holds:
        assert "claim: speedup >= 20 no longer holds" in broken[0]


@pytest.mark.parametrize(("eager", "holds"), [(0.3, True), (0.19, False)])
def test_a_claim_between_two_facts(eager, holds):
    facts = [timing("eager", eager), timing("jitted", 0.1)]
    assert (measured.broken_claims(facts, [Claim("eager", ">", 0.2)]) == []) is holds
    assert (measured.broken_claims(facts, [Claim("eager", ">=", "jitted")]) == []) is True


def test_a_claim_on_an_unrecorded_value_is_broken():
    broken = measured.broken_claims([], [Claim("missing", "<", 1.0)])
    assert "names a value this block did not record" in broken[0]


@pytest.mark.parametrize(
    ("facts", "claim"),
    [
        ([Fact("backend", "exact", "cpu")], Claim("backend", ">", 1.0)),
        ([Fact("n", "exact", 3)], Claim("n", "<", float("inf"))),
        ([timing("t", 0.5), Fact("name", "exact", "fast")], Claim("t", "<", "name")),
    ],
)
def test_a_claim_on_a_value_that_is_not_a_number_is_broken_not_an_error(facts, claim):
    """Issue 53: a claim on a text fact (or a bound no float holds) raised inside the engine's
    fence formatting; it is a broken claim that says why."""
    (broken,) = measured.broken_claims(facts, [claim])
    assert "which is not a finite number" in broken


def test_section_round_trips():
    facts = [Fact("equations", "exact", 3000), timing("loop", 2.3125), Fact("x", "ratio", 112.5, 3)]
    says = "x is at least 20 times y at N = 300"
    claims = [Claim("x", ">=", 20.0, says=says), Claim("loop", ">", "x")]
    text = measured.render(facts, claims)
    parsed_facts, parsed_claims = measured.parse(text.removeprefix(measured.SECTION))
    assert [(f.name, f.kind, f.band) for f in parsed_facts] == [
        (f.name, f.kind, f.band) for f in facts
    ]
    assert parsed_facts[0].value == "3000"
    assert parsed_facts[1].value == pytest.approx(2.312, rel=1e-3)
    assert parsed_claims == claims


@pytest.mark.parametrize(
    ("fact", "shown"),
    [
        (timing("t", 2.3456), "2.35 s"),
        (timing("t", 0.0123), "12.3 ms"),
        (timing("t", 4.5e-6), "4.5 µs"),
        (Fact("r", "ratio", 1234.5, 5.0), "1,234"),
        (Fact("r", "ratio", 3.14159, 5.0), "3.14"),
        (Fact("n", "exact", 285), "285"),
    ],
)
def test_values_are_shown_with_units_and_three_figures(fact, shown):
    assert fact.shown() == shown


def test_placeholders_are_replaced_for_the_reader():
    text = "unrolled: ⟦loop⟧, scan: ⟦scan⟧, unknown ⟦other⟧"
    shown = measured.substitute(text, [timing("loop", 2.0), timing("scan", 0.02)])
    assert shown == "unrolled: 2 s, scan: 20 ms, unknown ⟦other⟧"


# -- the API a snippet uses -------------------------------------------------------------------


@pytest.fixture(autouse=True)
def empty_records():
    api.take()
    yield
    api.take()


def test_timing_excludes_warm_up_and_takes_the_fastest_run():
    calls = []
    sleeps = [0.5, 0.3, 0.02, 0.3]  # warm-up, then a disturbed run, a clean one, a disturbed one

    def uneven():
        calls.append(None)
        time.sleep(sleeps[len(calls) - 1])

    value = api.timing("t", uneven, repeat=3, warmup=1)
    assert len(calls) == 4
    assert 0.015 < float(value) < 0.2
    assert str(value) == f"⟦t={float(value)!r}⟧" and f"{value:.3f}" == f"⟦t={float(value):.3f}⟧"
    assert measured.mask(f"{value:.3f}") == "⟦t⟧"


@pytest.mark.needs_book
def test_timing_waits_for_the_result_to_be_ready():
    import jax  # noqa: F401 - timing() blocks through JAX only when the snippet imported it

    class Pending:
        def block_until_ready(self):
            time.sleep(0.2)
            return self

    value = api.timing("t", Pending, repeat=1, warmup=0)
    assert float(value) >= 0.2


def test_records_are_handed_over_once():
    api.record("count", 3)
    api.record("speedup", 4.5, kind="ratio", band=2)
    api.claim("speedup", ">=", 2)
    facts, claims = api.take()
    assert [f["name"] for f in facts] == ["count", "speedup"]
    assert facts[1]["band"] == 2
    assert claims == [{"left": "speedup", "op": ">=", "right": 2, "says": ""}]
    assert api.take() == ([], [])


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda: api.record("x", 1.5), TypeError),
        (lambda: api.record("x", -1.0, kind="timing"), ValueError),
        (lambda: api.record("x", 1.0, kind="ratio", band=1.0), ValueError),
        (lambda: api.record("bad name", 1), ValueError),
        (lambda: api.record("x", 1, kind="guess"), ValueError),
        (lambda: api.claim("x", "==", 1), ValueError),
        # Issue 53: values no float holds broke the engine's formatting later, at the fence.
        (lambda: api.record("x", 1.0, kind="ratio", band=10**400), ValueError),
        (lambda: api.record("x", 1.0, kind="ratio", band=float("inf")), ValueError),
        (lambda: api.claim("x", "<", 10**400), ValueError),
        (lambda: api.claim("x", "<", float("nan")), ValueError),
        (lambda: api.record("x", 10**400), ValueError),
    ],
)
def test_bad_records_are_refused(call, error):
    with pytest.raises(error):
        call()


@pytest.mark.needs_book
def test_a_zero_dimensional_array_is_an_exact_count():
    import jax.numpy as jnp

    assert api.record("n", jnp.sum(jnp.ones(3, dtype=jnp.int32))) == 3


def test_timings_take_their_runs_in_turns_and_keep_each_fastest(monkeypatch):
    clock = [0.0]
    monkeypatch.setattr(api.time, "perf_counter", lambda: clock[0])
    order: list[str] = []
    cost = {"a": [0.02, 0.03, 0.01], "b": [0.01, 0.002, 0.03]}

    def run(name):
        def fn():
            order.append(name)
            clock[0] += cost[name][(order.count(name) - 2) % 3]  # warm-up is run -1

        return fn

    values = api.timings({"a": run("a"), "b": run("b")}, repeat=3, warmup=1)
    assert order == ["a", "b", "a", "b", "b", "a", "a", "b"]  # warm-ups, then rounds in turn
    assert values == {"a": pytest.approx(0.01), "b": pytest.approx(0.002)}
    facts, _ = api.take()
    assert [(f["name"], f["kind"]) for f in facts] == [("a", "timing"), ("b", "timing")]


def test_timing_holds_the_garbage_collector_off_only_while_the_clock_runs():
    seen = []
    api.timing("t", lambda: seen.append(gc.isenabled()), repeat=2, warmup=1)
    api.timings({"a": lambda: seen.append(gc.isenabled())}, repeat=2, warmup=0)
    api.take()
    assert seen == [True, False, False, False, False]  # the warm-up is not timed
    assert gc.isenabled()


def test_the_workers_records_become_facts_and_claims_each_banded_fact_with_its_band():
    facts = [
        {"name": "equations", "kind": "exact", "value": 7, "band": None},
        {"name": "first_call", "kind": "timing", "value": 0.25, "band": None},
        {"name": "speedup", "kind": "ratio", "value": 3.5, "band": 4.0},
    ]
    claims = [{"left": "speedup", "op": ">=", "right": 2, "says": "at least twice as fast"}]
    made, said = measured.from_worker(facts, claims, default_band=10.0)
    assert made == [
        Fact("equations", "exact", 7, None),
        Fact("first_call", "timing", 0.25, 10.0),
        Fact("speedup", "ratio", 3.5, 4.0),
    ]
    assert said == [Claim("speedup", ">=", 2, "at least twice as fast")]


@pytest.mark.parametrize(
    "fact",
    [
        {"name": "equations", "kind": "exact", "value": [7], "band": None},
        {"name": "equations", "kind": "exact", "value": 7},
        {"name": 7, "kind": "exact", "value": 7, "band": None},
    ],
)
def test_a_record_of_another_shape_is_an_error_that_shows_it(fact):
    with pytest.raises(ValueError, match="a worker recorded a fact of an unknown shape") as error:
        measured.from_worker([fact], [], default_band=10.0)
    assert repr(fact) in str(error.value)


def test_claim_values_say_by_how_much_each_claim_held():
    """What `./book stress` judges: a measured claim's margin, in the claim's direction; a claim
    between counts is marked exact (its margin says nothing about load)."""
    facts = [
        Fact("compile", "timing", 0.3, 5.0),
        Fact("trace", "timing", 0.1, 5.0),
        Fact("gain", "ratio", 1.5, 5.0),
        Fact("total", "exact", 280),
        Fact("after", "exact", "280"),  # as a golden's text reads back
    ]
    claims = [
        Claim("compile", ">", "trace"),
        Claim("gain", "<=", 3),
        Claim("total", "<=", "after"),
        Claim("gain", ">=", 2),
    ]
    found = measured.claim_values(facts, claims)
    assert [(v["claim"], v["measured"], v["holds"]) for v in found] == [
        ("compile > trace", True, True),
        ("gain <= 3", True, True),
        ("total <= after", False, True),
        ("gain >= 2", True, False),
    ]
    assert [round(v["margin"], 6) for v in found] == [3.0, 2.0, 1.0, 0.75]


@pytest.mark.parametrize(
    "text",
    ["3 timing (band x5)", "3 ratio (band x2.5)", "1.5 s timing (band x5)", "a (exact)", "3 s"],
)
def test_an_exact_fact_is_compared_exactly_whatever_its_text_looks_like(tmp_path, text):
    """Issue 53: a text that ends like a measurement was read back from the golden as a
    measured value, whose value is never compared: a changed text was green."""
    args = (tmp_path, "p.md", "b", "snippets/p/b.py", "out\n")
    written = compare(*args, [Fact("s", "exact", text)])
    written.path.parent.mkdir(parents=True)
    written.path.write_text(written.actual)
    assert compare(*args, [Fact("s", "exact", text)]).status == "ok"
    changed = compare(*args, [Fact("s", "exact", "999" + text.removeprefix("3"))])
    assert changed.status == "drifted", f"{text!r} -> changed, yet {changed.status}"
    facts, _ = measured.parse(written.actual.split(measured.SECTION)[1])
    assert facts == [Fact("s", "exact", text)]


def test_the_note_under_measured_times_claims_no_wait_the_code_did_not_make():
    """A block may time a trace or a compile itself, which waits for nothing: the note under
    its output names the backend, but no block_until_ready that only `facts.timing` makes."""
    text = shown("compile ⟦t=0.25⟧ s\n", [timing("t", 0.25)], "cpu")
    sentence, values = text.note
    assert "on the CPU backend" in sentence
    assert "block_until_ready" not in sentence
    assert values == ("0.25",)


def test_a_measured_value_prints_its_own_digits_marked_and_the_golden_masks_them():
    """Issue 52: the box shows what the code printed, in the format the code chose; only the
    golden hides the digits, which vary from run to run."""
    t = api.record("step", 0.00119, kind="timing")
    printed = f"{t * 1e3:.2f} ms, {t:.3g} s, {1 / t:.0f} per second, {t}"
    assert printed == "⟦step=1.19⟧ ms, ⟦step=0.00119⟧ s, ⟦step=840⟧ per second, ⟦step=0.00119⟧"
    assert measured.mask(printed) == "⟦step⟧ ms, ⟦step⟧ s, ⟦step⟧ per second, ⟦step⟧"
    box = shown(printed + "\n", api_facts(), "cpu")
    assert box == "1.19 ms, 0.00119 s, 840 per second, 0.00119\n"
    assert [box[a:b] for a, b in box.measured] == ["1.19", "0.00119", "840", "0.00119"]
    assert measured.mask("a golden's ⟦step⟧ ms") == "a golden's ⟦step⟧ ms"


def api_facts() -> list[Fact]:
    facts, _ = measured.from_worker(*api.take(), default_band=5.0)
    return facts


def test_a_recorded_output_shows_no_digits_it_did_not_keep():
    """A page showing its goldens (serve's first builds, BOOK_EXEC=off) has placeholders
    without the digits or the format the code printed: never the golden's value in the book's
    units beside the code's own ("948 ms ms")."""
    box = shown(
        "first call ⟦first⟧ ms, ⟦n⟧ equations\n", [timing("first", 0.948), count()], "(recorded)"
    )
    assert box == "first call … ms, 3 equations\n"
    assert [box[a:b] for a, b in box.measured] == ["…"]
    sentence, values = box.note
    assert values == ("…",) and "filled in when the code runs again" in sentence


def count() -> Fact:
    return Fact("n", "exact", "3")
