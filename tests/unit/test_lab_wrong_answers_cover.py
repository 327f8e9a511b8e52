"""Every exercise of every lab has wrong answers of each kind (tests/lab_wrong_answers/), and
every exercise of a lab on the kit says how its generated wrong answers are made."""

from __future__ import annotations

import re

import nbformat
from lab_wrong_answers import (
    CONFIRMATION_READ,
    CONFIRMATION_READ_E,
    CONFIRMATION_READ_FG,
    CONFIRMATION_READ_H,
    FINAL_READ_IJ,
    GENERATED,
    GENERATED_KINDS,
    ISSUE_36,
    KINDS,
    LAST_READ_K,
    LAST_READ_L,
    LAST_READ_L4,
    REVIEWED,
    RIGHT,
    THIRD_READ,
    THIRD_READ_C,
    WRONG,
    Wrong,
)

from conftest import REPO


def test_every_exercise_has_a_wrong_answer_of_each_kind():
    missing = []
    for path in sorted((REPO / "docs" / "labs").glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        numbers = [int(c.id.split("-")[1]) for c in nb.cells if re.fullmatch(r"answer-\d+", c.id)]
        assert set(WRONG.get(path.stem, {})) <= set(numbers), path.stem
        for n in numbers:
            answers = WRONG.get(path.stem, {}).get(n, [])
            kinds = {w.kind for w in answers}
            # An "n/a" entry stands for the kind its label names, and says why in its code.
            excused = {w.label for w in answers if w.kind == "n/a"}
            lacking = [kind for kind in KINDS if kind not in kinds | excused]
            if lacking:
                missing.append(f"{path.stem} exercise {n}: no {', '.join(lacking)}")
    assert not missing, "\n".join(missing)


def on_the_kit(nb) -> bool:
    """A lab whose checks cell is built on the lab kit (its `# lab kit` line)."""
    checks = next(c for c in nb.cells if c.id == "checks")
    return "# lab kit" in checks.source.split("\n")


def test_every_exercise_of_a_lab_on_the_kit_has_generated_wrong_answers():
    """(a) hard-coded, (b) mentioned-only and (c) swapped, each declared or excused with why;
    a swap names text of the worked solution."""
    missing = []
    for path in sorted((REPO / "docs" / "labs").glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        if not on_the_kit(nb):
            continue
        cells = {c.id: c for c in nb.cells}
        for n in [int(i.split("-")[1]) for i in cells if re.fullmatch(r"answer-\d+", i)]:
            spec = GENERATED.get(path.stem, {}).get(n)
            if spec is None:
                missing.append(f"{path.stem} exercise {n}: no GENERATED entry")
                continue
            excused = dict(spec.why_not)
            assert set(excused) <= set(GENERATED_KINDS), (path.stem, n, excused)
            made = {"hard-coded", "mentioned-only"} - excused.keys()
            made |= {"swapped"} if spec.swaps else set()
            if lacking := set(GENERATED_KINDS) - made - excused.keys():
                missing.append(f"{path.stem} exercise {n}: no {', '.join(sorted(lacking))}")
            if "mentioned-only" in made and not spec.mentioned:
                missing.append(f"{path.stem} exercise {n}: mentioned-only names no input")
            for old, _ in spec.swaps:
                assert old in cells[f"solution-{n}"].source, (path.stem, n, old)
    assert not missing, "\n".join(missing)


def test_wrong_answers_are_well_formed():
    for lab, exercises in WRONG.items():
        for n, answers in exercises.items():
            labels = [w.label for w in answers]
            assert len(labels) == len(set(labels)), (lab, n, labels)
            for w in answers:
                assert w.kind in (*KINDS, "n/a"), (lab, n, w)
                assert w.kind != "n/a" or w.label in KINDS, (lab, n, w)
                assert w.code.strip(), (lab, n, w)
                if w.kind != "n/a":
                    compile(w.code, f"{lab} {n} {w.label}", "exec")


def test_right_answers_are_well_formed():
    for lab, exercises in RIGHT.items():
        assert (REPO / "docs" / "labs" / f"{lab}.ipynb").exists(), lab
        for n, answers in exercises.items():
            labels = [r.label for r in answers]
            assert len(labels) == len(set(labels)), (lab, n, labels)
            for r in answers:
                compile(r.code, f"{lab} {n} {r.label}", "exec")


def kept(table: dict[str, dict[int, list[Wrong]]]) -> dict[tuple[str, int], int]:
    """How many wrong answers a read's table holds per exercise, each checked to be in WRONG."""
    for lab, exercises in table.items():
        for n, answers in exercises.items():
            assert all(w in WRONG[lab][n] for w in answers), (lab, n)
    return {(lab, n): len(answers) for lab, ex in table.items() for n, answers in ex.items()}


def test_the_cases_issue_36_found_passing_stay_in_the_table():
    """The seven wrong answers the issue saw pass; each was red before its check was fixed."""
    assert kept(ISSUE_36).keys() == {
        ("retracing", 3),
        ("jit-in-practice", 1),
        ("pytrees", 4),
        ("interpreter", 2),
        ("derivatives", 3),
        ("sharding", 3),
        ("sharding", 4),
    }


def test_the_cases_the_reviewers_found_passing_stay_in_the_table():
    """Reviews r1, r2 and r3 of issue 36, and the second and third reviews of issue 37: wrong
    answers that passed; each was red before its check was fixed. Issue 51 moved five of them
    to RIGHT (derivatives Ex 2: reverse over reverse; transforms Ex 3: jax.grad,
    value_and_grad, a linearization transposed; transforms Ex 4: jacrev over grad): a check
    that reads the program and may not watch Python calls sees the program JAX writes for the
    exercise's own technique, or one no longer (tests/lab_wrong_answers/<lab>.py says why)."""
    assert kept(REVIEWED) == {
        ("captures", 3): 2,
        ("collectives", 1): 2,
        ("collectives", 2): 2,
        ("collectives", 3): 2,
        ("control-flow", 1): 2,
        ("control-flow", 2): 2,
        ("control-flow", 4): 2,
        ("control-flow", 5): 3,
        ("derivatives", 2): 2,
        ("interpreter", 3): 1,
        ("jit-in-practice", 1): 1,
        ("jit-in-practice", 2): 4,
        ("lesson", 3): 2,
        ("numpy-habits", 4): 4,
        ("primitives", 1): 2,
        ("retracing", 3): 1,
        ("sharding", 3): 3,
        ("tracers", 3): 2,
        ("transforms", 1): 3,
        ("transforms", 3): 2,
    }


def test_the_cases_the_third_read_found_passing_stay_in_the_table():
    """The third read of issue 37 (reviewer A): wrong answers that passed; each was red before
    its check was fixed."""
    assert kept(THIRD_READ) == {
        ("interpreter", 1): 1,
        ("leaving-the-trace", 1): 2,
        ("leaving-the-trace", 3): 1,
        ("primitives", 1): 2,
        ("primitives", 3): 1,
        ("sharding", 3): 1,
    }


def test_the_cases_the_third_read_c_found_passing_stay_in_the_table():
    """The third read of issue 37 (reviewer C): wrong answers that passed; each was red before
    its check was fixed."""
    assert kept(THIRD_READ_C) == {
        ("captures", 1): 1,
        ("captures", 3): 1,
        ("collectives", 3): 2,
        ("numpy-habits", 4): 2,
        ("randomness", 3): 2,
    }


def test_the_cases_the_confirmation_read_found_passing_stay_in_the_table():
    """The confirmation read of issue 37 (reviewer D): wrong answers that passed, and the next
    one a hostile reader would try; each was red before its check was fixed."""
    assert kept(CONFIRMATION_READ) == {
        ("interpreter", 1): 2,
        ("interpreter", 2): 2,
        ("interpreter", 3): 2,
        ("leaving-the-trace", 2): 1,
        ("leaving-the-trace", 3): 1,
        ("sharding", 3): 3,
    }


def test_the_jitted_halves_the_third_read_c_found_refused_stay_right():
    """A correct halve jitted with steps static was refused by control-flow's Ex 5 check."""
    labels = [r.label for r in RIGHT["control-flow"][5]]
    assert "jitted, with steps static by position" in labels
    assert "jitted by jax.jit(..., static_argnames=...)" in labels


def test_the_cases_the_confirmation_read_e_found_passing_stay_in_the_table():
    """The confirmation read of issue 37 (reviewer E): wrong answers that passed, and the next
    one tried once each was refused; each was red before its check was fixed."""
    assert kept(CONFIRMATION_READ_E) == {
        ("transforms", 1): 3,
        ("transforms", 4): 3,
        ("derivatives", 2): 2,
        ("retracing", 2): 2,
    }


def test_the_cases_the_confirmation_reads_f_and_g_found_passing_stay_in_the_table():
    """The confirmation reads of issue 37 (reviewers F and G): wrong answers that passed, and
    the next one tried where a check was widened; each that passed was red before its check
    was fixed."""
    assert kept(CONFIRMATION_READ_FG) == {
        ("interpreter", 1): 1,
        ("interpreter", 2): 1,
        ("numpy-habits", 3): 2,
        ("control-flow", 1): 1,
        ("control-flow", 2): 1,
        ("control-flow", 5): 1,
    }


def test_the_cases_the_confirmation_read_h_found_passing_stay_in_the_table():
    """The confirmation read H of issue 37: wrong answers that passed; each was red before its
    check was fixed."""
    assert kept(CONFIRMATION_READ_H) == {
        ("transforms", 1): 1,
        ("transforms", 3): 1,
        ("derivatives", 3): 1,
        ("retracing", 1): 1,
        ("retracing", 3): 1,
    }


def test_the_cases_the_final_reads_i_and_j_found_passing_stay_in_the_table():
    """The final reads I and J of issue 37: wrong answers that passed; each was red before its
    check was fixed."""
    assert kept(FINAL_READ_IJ) == {
        ("interpreter", 1): 1,
        ("interpreter", 2): 2,
        ("interpreter", 3): 1,
        ("control-flow", 1): 1,
        ("control-flow", 2): 1,
        ("derivatives", 2): 1,
    }


def test_the_cases_the_last_read_l_found_passing_stay_in_the_table():
    """The last read L of issue 37 and its confirmation: wrong answers that passed; each was red
    before its check was fixed."""
    assert kept(LAST_READ_L) == {
        ("control-flow", 1): 3,
        ("control-flow", 2): 5,
        ("control-flow", 4): 2,
    }


def test_the_cases_the_last_read_k_found_passing_stay_in_the_table():
    """The last read K of issue 37 and its confirmation: wrong answers that passed; each was red
    before its check was fixed."""
    assert kept(LAST_READ_K) == {("interpreter", 3): 6}


def test_the_case_the_last_confirmation_l4_found_passing_stays_in_the_table():
    """The last confirmation L4 of issue 37: a decoy carry that passed, red before its fix."""
    assert kept(LAST_READ_L4).keys() == {("control-flow", 5)}


# Issue 36 found these exercises to be a true/false guess or a one-liner: rewritten, each asks
# for a function that traces a jaxpr and reads it, and takes wrong answers of every kind.
REWRITTEN = {("primitives", 1), ("interpreter", 3), ("pytrees", 2), ("tracers", 2)}
# Issue 51 found these to be predictions, a yes/no or a pick-one: each now asks for a function
# that the check calls on inputs of its own, with wrong answers of every kind.
MADE_FUNCTIONS = {
    ("pytrees", 1),
    ("pytrees", 2),
    ("pytrees", 3),
    ("control-flow", 3),
    ("retracing", 1),
    ("retracing", 2),
    ("captures", 2),
    ("tracers", 2),
    ("tracers", 3),
    ("transforms", 2),
}


def test_rewritten_exercises_ask_for_code_that_reads_a_jaxpr():
    for lab, n in sorted(REWRITTEN):
        cells = {c.id: c for c in nbformat.read(REPO / "docs" / "labs" / f"{lab}.ipynb", 4).cells}
        answer, solution = cells[f"answer-{n}"].source, cells[f"solution-{n}"].source
        assert answer.startswith("def ") and "raise NotImplementedError" in answer, (lab, n)
        assert "jax.make_jaxpr(" in solution and ".eqns" in solution, (lab, n)
        kinds = [w.kind for w in WRONG[lab][n]]
        assert "n/a" not in kinds and set(KINDS) <= set(kinds), (lab, n, kinds)


def test_exercises_issue_51_rewrote_ask_for_a_function():
    for lab, n in sorted(MADE_FUNCTIONS):
        cells = {c.id: c for c in nbformat.read(REPO / "docs" / "labs" / f"{lab}.ipynb", 4).cells}
        answer = cells[f"answer-{n}"].source
        assert "def " in answer and "raise NotImplementedError  # your code\n" in answer + "\n"
        assert "None  #" not in answer, (lab, n)  # no prediction left to fill in
        kinds = [w.kind for w in WRONG[lab][n]]
        assert "n/a" not in kinds and set(KINDS) <= set(kinds), (lab, n, kinds)
        assert not dict(GENERATED[lab][n].why_not), (lab, n)
