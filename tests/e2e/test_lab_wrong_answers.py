"""Labs' checks cannot be fooled: every wrong answer of tests/lab_wrong_answers/, run in its
exercise's place, gets "not yet", and so does every wrong answer generated from a worked
solution (its `GENERATED` entry); every other right answer of its RIGHT table gets
"correct". The plays come from tests/lab_runner.py, one process per lab (the `lab_play`
fixture, which tests/e2e/test_labs.py shares)."""

from __future__ import annotations

import pytest
from lab_wrong_answers import GENERATED, RIGHT, SAYS, WRONG

LAB = "docs/labs/{}.ipynb"


@pytest.mark.parametrize("lab", sorted(WRONG))
def test_lab_check_says_not_yet_to_every_wrong_answer(lab, lab_play):
    report = lab_play(lab)["wrong"]
    expected = [
        (n, w.label)
        for n, answers in sorted(WRONG[lab].items())
        for w in answers
        if w.kind != "n/a"
    ]
    assert [(r["exercise"], r["label"]) for r in report] == expected
    fooled = [
        f"Exercise {r['exercise']} ({r['kind']}: {r['label']}): "
        + (f"the wrong answer raised {r['raised']}" if r["raised"] else r["said"].strip())
        for r in report
        if r["raised"] or not r["said"].startswith(f"Exercise {r['exercise']}: not yet: ")
    ]
    assert not fooled, "\n".join(fooled)


@pytest.mark.parametrize("lab", sorted(RIGHT))
def test_lab_check_says_correct_to_every_other_right_answer(lab, lab_play):
    report = lab_play(lab)["right"]
    expected = [(n, r.label) for n, answers in sorted(RIGHT[lab].items()) for r in answers]
    assert [(r["exercise"], r["label"]) for r in report] == expected
    refused = [
        f"Exercise {r['exercise']} ({r['label']}): "
        + (f"the right answer raised {r['raised']}" if r["raised"] else r["said"].strip())
        for r in report
        if r["raised"] or r["said"].strip() != f"Exercise {r['exercise']}: correct"
    ]
    assert not refused, "\n".join(refused)


@pytest.mark.parametrize("lab", sorted({lab for lab, _, _ in SAYS}))
def test_lab_check_names_a_wrong_type_instead_of_a_raw_error(lab, lab_play):
    said = {(r["exercise"], r["label"]): r["said"] for r in lab_play(lab)["wrong"]}
    missing = [
        f"Exercise {n} ({label}): wanted {words!r}, said {said[(n, label)].strip()}"
        for (of, n, label), words in SAYS.items()
        if of == lab and words not in said[(n, label)]
    ]
    assert not missing, "\n".join(missing)


@pytest.mark.parametrize("lab", sorted(GENERATED))
def test_lab_check_says_not_yet_to_every_generated_wrong_answer(lab, lab_play):
    """(a) the solution's outputs on the check's inputs, looked up; (b) the solution only for
    the inputs the lab's text mentions; (c) the solution with one primitive swapped."""
    report = lab_play(lab)["generated"]
    for n, spec in GENERATED[lab].items():
        kinds = {r["kind"] for r in report if r["exercise"] == n} | dict(spec.why_not).keys()
        assert kinds == {"hard-coded", "mentioned-only", "swapped"}, (lab, n, kinds)
    for r in report:  # a hard-coded table needs the check to have called the solution
        assert r["kind"] != "hard-coded" or r["recorded"], f"Exercise {r['exercise']}: no call"
    fooled = [
        f"Exercise {r['exercise']} ({r['kind']}: {r['label']}): "
        + (f"the answer raised {r['raised']}" if r["raised"] else r["said"].strip())
        for r in report
        if r["raised"] or not r["said"].startswith(f"Exercise {r['exercise']}: not yet: ")
    ]
    assert not fooled, "\n".join(fooled)
