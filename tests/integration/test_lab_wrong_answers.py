"""Labs' checks cannot be fooled: every wrong answer of tests/lab_wrong_answers.py, run in its
exercise's place, gets "not yet", and every other right answer of its RIGHT table gets
"correct". One process per lab and table (tests/lab_runner.py --wrong, --right)."""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys

import pytest
from lab_wrong_answers import RIGHT, SAYS, WRONG

from conftest import REPO

LAB = "docs/labs/{}.ipynb"


@functools.cache  # the wrong answers' run serves two tests: run it once
def wrong_answers_of(lab: str, table: str = "--wrong") -> list[dict]:
    from bookexec.privacy import worker_environment

    done = subprocess.run(
        [
            sys.executable,
            str(REPO / "tests" / "lab_runner.py"),
            table,
            f"docs/labs/{lab}.ipynb",
        ],
        capture_output=True,
        text=True,
        timeout=900,
        cwd=REPO,
        env=worker_environment(os.environ),
    )
    line = next((ln for ln in done.stdout.splitlines() if ln.startswith("LAB-WRONG ")), None)
    assert line, done.stdout[-2000:] + done.stderr[-2000:]
    return json.loads(line.removeprefix("LAB-WRONG "))


@pytest.mark.parametrize("lab", sorted(WRONG))
def test_lab_check_says_not_yet_to_every_wrong_answer(lab):
    report = wrong_answers_of(lab)
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
def test_lab_check_says_correct_to_every_other_right_answer(lab):
    report = wrong_answers_of(lab, "--right")
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
def test_lab_check_names_a_wrong_type_instead_of_a_raw_error(lab):
    said = {(r["exercise"], r["label"]): r["said"] for r in wrong_answers_of(lab)}
    missing = [
        f"Exercise {n} ({label}): wanted {words!r}, said {said[(n, label)].strip()}"
        for (of, n, label), words in SAYS.items()
        if of == lab and words not in said[(n, label)]
    ]
    assert not missing, "\n".join(missing)
