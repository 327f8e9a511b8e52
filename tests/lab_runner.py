"""Play one lab four ways in this process and print what each did, as one JSON line.

`python tests/lab_runner.py docs/labs/<lab>.ipynb`. Each play has a fresh namespace:

- "given": the lab as a reader first meets it, every cell tagged `solution` left out;
- "solved": each exercise's `solution-<n>` cell run in place of its `answer-<n>` cell;
- "wrong": the lab solved, and just before each `answer-<n>` cell every wrong answer of
  exercise n (tests/lab_wrong_answers.py) in a copy of the namespace: the checks cell again
  (so that `problem_<n>` reads the copy), the wrong answer, then `check(n, problem_n)`;
- "right": the same with the other right answers of `RIGHT` in that file.

One process per lab keeps the cost to one JAX start per lab; the tests share its report
(the `lab_play` fixture). The plays run in that order, so what the trial answers of the last two
leave behind (a compiled function, a cache) cannot reach the first two. Each cell's stdout is
captured; an exception is recorded by type and message (a cell whose `bookexec` metadata
declares `raises` is expected to raise that).
"""

from __future__ import annotations

import contextlib
import io
import json
import sys

import nbformat


def solution_of(cells: list, cell_id: str) -> nbformat.NotebookNode | None:
    """The `solution-<n>` cell for `answer-<n>`, if the lab has one."""
    wanted = "solution-" + cell_id.removeprefix("answer-")
    return next((c for c in cells if c.get("id") == wanted), None)


def plan(cells: list, mode: str) -> list[tuple[str, nbformat.NotebookNode]]:
    """The (shown id, cell run) pairs of one run, in order."""
    steps = []
    for cell in cells:
        if cell.cell_type != "code":
            continue
        solution = "solution" in cell.metadata.get("tags", [])
        if solution and (mode == "given" or cell.id.startswith("solution-")):
            continue  # left out, or already run in its answer cell's place
        if mode == "solved" and cell.id.startswith("answer-"):
            steps.append((cell.id, solution_of(cells, cell.id) or cell))
            continue
        steps.append((cell.id, cell))
    return steps


def execute(source: str, name: str, namespace: dict) -> tuple[str, str | None]:
    """Run one cell's source in `namespace`: (its stdout, the exception it raised or None)."""
    out = io.StringIO()
    raised = None
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(source, name, "exec"), namespace)
    except BaseException as error:  # recorded, judged by the test
        raised = f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}"
    return out.getvalue(), raised


def run(path: str, mode: str) -> list[dict]:
    cells = nbformat.read(path, as_version=4).cells
    namespace: dict = {"__name__": "__main__"}
    results = []
    for shown, cell in plan(cells, mode):
        stdout, raised = execute(cell.source, f"{path}#{cell.id}", namespace)
        expected = cell.metadata.get("bookexec", {}).get("raises")
        results.append(
            {
                "id": shown,
                "ran": cell.id,
                "stdout": stdout,
                "raised": raised,
                "expected": expected,
            }
        )
    return results


def run_wrong(path: str, table: str = "WRONG") -> list[dict]:
    """Each wrong answer of the lab (or each other right answer, with `table="RIGHT"`), run in
    its exercise's place, and what its check said."""
    import lab_wrong_answers

    answers_of = getattr(lab_wrong_answers, table)
    lab = path.rsplit("/", 1)[-1].removesuffix(".ipynb")
    cells = nbformat.read(path, as_version=4).cells
    checks = next(c for c in cells if c.id == "checks")
    namespace: dict = {"__name__": "__main__"}
    results = []
    for shown, cell in plan(cells, "solved"):
        if shown.startswith("answer-"):
            n = int(shown.removeprefix("answer-"))
            for trial_answer in answers_of.get(lab, {}).get(n, []):
                if not getattr(trial_answer, "code_runs", True):
                    continue
                # A shallow copy: what the trial answer defines stays out of the real run.
                trial = dict(namespace)
                execute(checks.source, f"{path}#checks", trial)
                name = f"{path}#{shown} ({table.lower()}: {trial_answer.label})"
                _, raised = execute(trial_answer.code, name, trial)
                said, check_raised = execute(f"check({n}, problem_{n})", f"{path}#check-{n}", trial)
                results.append(
                    {
                        "exercise": n,
                        "label": trial_answer.label,
                        "kind": getattr(trial_answer, "kind", "right"),
                        "raised": raised or check_raised,
                        "said": said,
                    }
                )
        execute(cell.source, f"{path}#{cell.id}", namespace)
    return results


if __name__ == "__main__":
    lab = sys.argv[1]
    report = {mode: run(lab, mode) for mode in ("given", "solved")}
    report |= {table.lower(): run_wrong(lab, table) for table in ("WRONG", "RIGHT")}
    sys.stdout.write("LAB-PLAYS " + json.dumps(report) + "\n")
