"""Play one lab five ways in this process and print what each did, as one JSON line.

`python tests/lab_runner.py docs/labs/<lab>.ipynb`. Each play has a fresh namespace:

- "given": the lab as a reader first meets it, every cell tagged `solution` left out;
- "solved": each exercise's `solution-<n>` cell run in place of its `answer-<n>` cell;
- "wrong": the lab solved, and just before each `answer-<n>` cell every wrong answer of
  exercise n (tests/lab_wrong_answers/<lab>.py) in a copy of the namespace: the checks cell
  again (so that `problem_<n>` reads the copy), the wrong answer, then `check(n, problem_n)`;
- "right": the same with the other right answers of `RIGHT` in that module;
- "generated": the same with the wrong answers made from each worked solution as its
  `GENERATED` entry says (`lab_wrong_answers._table.Generated`): (a) the outputs the solution
  gave on the inputs the check drew once, looked up; (b) the solution only for arguments shaped
  like those the lab's text mentions; (c) the solution with one primitive swapped.

The last four share one play of the solved lab (`run_trials`): at each `answer-<n>` cell, the
wrong answers, then the right ones, then the generated ones, each in its own copy of the
namespace, then the real cell, whose output is the "solved" report. A trial never writes the
namespace the lab goes on in, so one play serves the four reports as four plays of the same lab
did, for a quarter of the cost.

A check draws its inputs afresh each time, so one call may miss what another catches:
`LAB_CHECK_REPEATS=N` (default 1) calls each trial's check N times, and each check of the
"solved" play, and reports the first call that disagrees (a "correct" to a wrong answer,
anything else to a right one or a worked solution): the audit that a wrong answer is caught,
and a right one accepted, on every draw, not only on some.

The `checks` cell's `# lab kit` line is replaced by the kit's code (`jaxbook.labs.with_kit`),
as the build and the reader's notebook replace it.

One process per lab keeps the cost to one JAX start per lab; the tests share its report
(the `lab_play` fixture). The "given" play runs first, so what the trial answers leave behind
(a compiled function, a cache) cannot reach it; the worked solutions in a kernel that ran
nothing else but the lab as given are tests/e2e/test_lab_notebooks.py's. Each cell's stdout is
captured; an exception is recorded by type and message (a cell whose `bookexec` metadata
declares `raises` is expected to raise that).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys

import nbformat
import numpy as np

from jaxbook.labs import with_kit


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


def cells_of(path: str) -> list:
    """The lab's cells, the checks cell with the kit's code in place of its `# lab kit` line."""
    cells = nbformat.read(path, as_version=4).cells
    for cell in cells:
        cell.source = with_kit(cell.source)
    return cells


def run(path: str, mode: str) -> list[dict]:
    namespace: dict = {"__name__": "__main__"}
    return [step(path, mode, shown, cell, namespace) for shown, cell in plan(cells_of(path), mode)]


def step(path: str, mode: str, shown: str, cell: nbformat.NotebookNode, namespace: dict) -> dict:
    """Run one cell of a play in `namespace`, and what it did."""
    n = shown.removeprefix("check-")
    if mode == "solved" and cell.source.strip() == f"check({n}, problem_{n})":
        # The worked solution, checked as often as the audit asks (`judged`).
        stdout, raised = judged(int(n), path, namespace, right=True)
    else:
        stdout, raised = execute(cell.source, f"{path}#{cell.id}", namespace)
    expected = cell.metadata.get("bookexec", {}).get("raises")
    return {"id": shown, "ran": cell.id, "stdout": stdout, "raised": raised, "expected": expected}


def judged(n: int, path: str, namespace: dict, right: bool) -> tuple[str, str | None]:
    """What exercise n's check said to the trial answer in `namespace`, called
    `LAB_CHECK_REPEATS` times: the first call that disagrees with the table, else the last."""
    said, raised = "", None
    for _ in range(max(1, int(os.environ.get("LAB_CHECK_REPEATS", "1")))):
        said, raised = execute(f"check({n}, problem_{n})", f"{path}#check-{n}", namespace)
        agrees = (
            said.strip() == f"Exercise {n}: correct"
            if right
            else said.startswith(f"Exercise {n}: not yet: ")
        )
        if raised or not agrees:
            break
    return said, raised


def tabled_trials(path: str, n: int, table: str, checks: str, namespace: dict) -> list[dict]:
    """Each wrong answer of exercise n (or each other right answer, with `table="RIGHT"`), run
    in a copy of `namespace` in its answer cell's place, and what its check said."""
    import lab_wrong_answers

    lab = path.rsplit("/", 1)[-1].removesuffix(".ipynb")
    results = []
    for trial_answer in getattr(lab_wrong_answers, table).get(lab, {}).get(n, []):
        if not getattr(trial_answer, "code_runs", True):
            continue
        # A shallow copy: what the trial answer defines stays out of the real run.
        trial = dict(namespace)
        execute(checks, f"{path}#checks", trial)
        name = f"{path}#answer-{n} ({table.lower()}: {trial_answer.label})"
        _, raised = execute(trial_answer.code, name, trial)
        said, check_raised = judged(n, path, trial, right=table == "RIGHT")
        results.append(
            {
                "exercise": n,
                "label": trial_answer.label,
                "kind": getattr(trial_answer, "kind", "right"),
                "raised": raised or check_raised,
                "said": said,
            }
        )
    return results


def run_trials(path: str) -> dict[str, list[dict]]:
    """One play of the solved lab with every trial answer run in its exercise's place: the
    "solved" report (its own cells), and the "wrong", "right" and "generated" ones."""
    cells = cells_of(path)
    by_id = {c.id: c for c in cells}
    namespace: dict = {"__name__": "__main__"}
    found: dict[str, list[dict]] = {"solved": [], "wrong": [], "right": [], "generated": []}
    for shown, cell in plan(cells, "solved"):
        if shown.startswith("answer-"):
            n = int(shown.removeprefix("answer-"))
            for table in ("WRONG", "RIGHT"):
                found[table.lower()] += tabled_trials(
                    path, n, table, by_id["checks"].source, namespace
                )
            found["generated"] += generated_trials(path, n, by_id, namespace)
        found["solved"].append(step(path, "solved", shown, cell, namespace))
    return found


# -- generated wrong answers ----------------------------------------------------------------


def _concrete(tree: object) -> bool:
    import jax

    return not any(isinstance(leaf, jax.core.Tracer) for leaf in jax.tree.leaves(tree))


def _same(a: object, b: object) -> bool:
    """Whether two argument tuples hold the same values: what a hard-coded table matches on."""
    import jax

    (xs, xt), (ys, yt) = jax.tree.flatten(a), jax.tree.flatten(b)
    if xt != yt or not _concrete(xs):  # under jit: nothing to look up
        return False
    for x, y in zip(xs, ys, strict=True):
        if hasattr(x, "shape") and hasattr(y, "shape"):
            if np.shape(x) != np.shape(y) or not np.array_equal(np.asarray(x), np.asarray(y)):
                return False
        elif callable(x) or callable(y):
            if x is not y:
                return False
        elif type(x) is not type(y) or x != y:
            return False
    return True


def _other(leaf: object) -> str:
    """A leaf that is not a number: a function by its identity (the text's function is not
    any function), anything else by its type."""
    return f"function {id(leaf)}" if callable(leaf) else type(leaf).__name__


def _signature(args: object) -> str:
    """The tree structure of an argument tuple and each leaf's shape and kind of dtype, not its
    values: a Python float and a traced scalar alike (jit traces a float argument)."""
    import jax

    leaves, tree = jax.tree.flatten(args)
    kinds = [
        f"{tuple(x.shape)}:{x.dtype.kind}"
        if hasattr(x, "shape") and hasattr(x, "dtype")
        else (f"():{np.asarray(x).dtype.kind}" if isinstance(x, (int, float)) else _other(x))
        for x in leaves
    ]
    return f"{tree} {kinds}"


class HardCoded:
    """The solution's results on the arguments the check gave it once, looked up."""

    def __init__(self) -> None:
        self.table: list[tuple[tuple, dict, object]] = []

    def recording(self, fn):
        import functools

        @functools.wraps(fn)  # its signature, as a check may read it
        def recorder(*args, **kwargs):
            result = fn(*args, **kwargs)
            if _concrete((args, kwargs, result)):
                import jax

                typed_in = jax.tree.map(
                    lambda x: np.asarray(x) if isinstance(x, jax.Array) else x, result
                )
                self.table.append((args, kwargs, typed_in))
            return result

        if hasattr(fn, "lower"):  # jitted, as a check may ask
            recorder.lower = fn.lower
        return recorder

    def __call__(self, *args, **kwargs):
        for known, known_kwargs, result in self.table:
            if _same((args, kwargs), (known, known_kwargs)):
                return result
        return self.table[0][2] if self.table else None


def definitions(source: str) -> str:
    """A solution cell's imports, functions and classes: the answer, without the lines that
    show it off (a swapped answer may break those, and would raise in its own cell)."""
    import ast

    kept = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef)

    def plain(node: ast.AST) -> bool:  # `seen = []`: an assignment that calls nothing
        return isinstance(node, ast.Assign) and not any(
            isinstance(inner, ast.Call) for inner in ast.walk(node.value)
        )

    tree = ast.parse(source)
    return (
        "\n\n\n".join(
            ast.get_source_segment(source, node, padded=True)
            if not getattr(node, "decorator_list", None)
            else "\n".join(source.splitlines()[node.decorator_list[0].lineno - 1 : node.end_lineno])
            for node in tree.body
            if isinstance(node, kept) or plain(node)
        )
        + "\n"
    )


def parameters(solution: str, function: str) -> tuple[str, str]:
    """The parameter list of `function` in the solution, and the call that passes them on:
    a generated answer keeps the signature (a check may read it)."""
    import ast

    for node in ast.parse(solution).body:
        if isinstance(node, ast.FunctionDef) and node.name == function:
            args = node.args
            names = [a.arg for a in args.posonlyargs + args.args]
            passed = names + [f"{a.arg}={a.arg}" for a in args.kwonlyargs]
            if args.vararg:
                passed.append(f"*{args.vararg.arg}")
            if args.kwarg:
                passed.append(f"**{args.kwarg.arg}")
            return ast.unparse(args), ", ".join(passed)
    return "*args", "*args"


# A generated answer is jitted where the solution's function is: a check may ask for that.
_JITTED_AS_BEFORE = 'if hasattr(_original, "lower"):\n    {function} = jax.jit({function})\n'


def hard_coded(solution: str, function: str) -> str:
    """(a): the solution's code, with `function` looking its arguments up in the record."""
    params, call = parameters(solution, function)
    return (
        f"{solution}\n_original = {function}\n\n\ndef {function}({params}):\n"
        f"    return _hard_coded({call})\n\n\n{_JITTED_AS_BEFORE.format(function=function)}"
    )


def mentioned_only(solution: str, function: str, mentioned: tuple[str, ...]) -> str:
    """(b): the solution for arguments shaped like those the text mentions, else a fixed
    result: the solution's on the first of them."""
    shapes = ", ".join(mentioned)
    params, call = parameters(solution, function)
    return (
        f"{solution}\n_solution = {function}\n"
        f"_MENTIONED = [_signature(args) for args in [{shapes},]]\n"
        f"_FIXED = _solution(*{mentioned[0]})\n\n\n"
        f"def {function}({params}):\n"
        f"    if _signature(({call},)) in _MENTIONED:\n"
        f"        return _solution({call})\n"
        "    return _FIXED\n\n\n"
        f"_original = _solution\n{_JITTED_AS_BEFORE.format(function=function)}"
    )


def generated_answers(spec, solution: str) -> list[tuple[str, str, str]]:
    """(label, kind, code) of each generated wrong answer; (a)'s code is the solution's with
    the function replaced by one that calls `_hard_coded`."""
    excused = dict(spec.why_not)
    made = []
    if "hard-coded" not in excused:
        made.append(
            (
                "the solution's outputs on the check's inputs, hard-coded",
                "hard-coded",
                hard_coded(solution, spec.function),
            )
        )
    if "mentioned-only" not in excused:
        label = "the solution only for the inputs the text mentions: " + ", ".join(spec.mentioned)
        made.append(
            (label, "mentioned-only", mentioned_only(solution, spec.function, spec.mentioned))
        )
    for old, new in spec.swaps:
        assert old in solution, f"{old!r} is not in the worked solution"
        label = f"swapped: {old.strip()} -> {new.strip() or '(nothing)'}"
        made.append((label, "swapped", solution.replace(old, new)))
    return made


def generated_trials(path: str, n: int, by_id: dict, namespace: dict) -> list[dict]:
    """Each generated wrong answer of exercise n, run in a copy of `namespace` in its answer
    cell's place, and what its check said."""
    from lab_wrong_answers import GENERATED

    lab = path.rsplit("/", 1)[-1].removesuffix(".ipynb")
    spec = GENERATED.get(lab, {}).get(n)
    if spec is None:
        return []
    checks = by_id["checks"]
    solution = definitions(by_id[f"solution-{n}"].source)
    hard_coded = HardCoded()
    if "hard-coded" not in dict(spec.why_not):
        record = dict(namespace)  # the solution once under the check, calls recorded
        execute(checks.source, f"{path}#checks", record)
        execute(solution, f"{path}#solution-{n}", record)
        record[spec.function] = hard_coded.recording(record[spec.function])
        execute(f"check({n}, problem_{n})", f"{path}#check-{n}", record)
    results = []
    for label, kind, code in generated_answers(spec, solution):
        trial = dict(namespace)
        execute(checks.source, f"{path}#checks", trial)
        trial |= {"_hard_coded": hard_coded, "_signature": _signature}
        _, raised = execute(code, f"{path}#answer-{n} (generated: {label})", trial)
        said, check_raised = judged(n, path, trial, right=False)
        results.append(
            {
                "exercise": n,
                "label": label,
                "kind": kind,
                "raised": raised or check_raised,
                "said": said,
                "recorded": len(hard_coded.table),
            }
        )
    return results


if __name__ == "__main__":
    lab = sys.argv[1]
    report = {"given": run(lab, "given")} | run_trials(lab)
    sys.stdout.write("LAB-PLAYS " + json.dumps(report) + "\n")
