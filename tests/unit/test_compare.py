"""A golden compared with a build's output, without JAX: the classifier seam and its default."""

from __future__ import annotations

import ast
import os
import subprocess
import sys

import pytest

from bookexec._internal.files import write_atomic
from bookexec._internal.goldens import compare as golden_compare
from bookexec._internal.goldens.compare import (
    COSMETIC,
    STRUCTURAL,
    TEXT,
    Drift,
    compare,
    plain_text,
)
from bookexec._internal.goldens.measured import Fact
from conftest import REPO

pytestmark = pytest.mark.engine

HOOKS = REPO / "hooks"
GOLDENS = HOOKS / "bookexec" / "_internal" / "goldens"


def imported_modules(path) -> set[str]:
    """Every module a file imports, at any depth of the file (functions included)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


@pytest.mark.parametrize("path", sorted(GOLDENS.glob("*.py")), ids=lambda p: p.name)
def test_goldens_import_neither_jax_nor_the_book(path):
    """The goldens layer is generic: JAX's reading of an output reaches it as a classifier."""
    forbidden = ("jax", "bookexec._internal.jax", "jaxbook")
    bad = [
        m for m in imported_modules(path) if any(m == f or m.startswith(f + ".") for f in forbidden)
    ]
    assert not bad, f"{path.relative_to(REPO)} imports {bad}"


def test_goldens_load_without_jax_in_the_process():
    code = (
        "import sys\n"
        "from bookexec._internal.goldens import compare, measured, normalize, report, review\n"
        "from bookexec._internal.goldens import store\n"
        "loaded = [m for m in sys.modules if m == 'jax' or m.startswith(('jax.', 'jaxbook',"
        " 'bookexec._internal.jax'))]\n"
        "assert not loaded, loaded\n"
    )
    env = {**os.environ, "PYTHONPATH": str(HOOKS)}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_the_default_classifier_reads_plain_text():
    assert plain_text("a b\n", "a  b\n\n").kind == COSMETIC
    assert plain_text("a b\n", "a  b\n").headline() == "cosmetic: only whitespace changed"
    assert plain_text("1 2\n", "12\n").kind == TEXT  # words joined is not layout
    assert plain_text("x = 1\n", "x = 2\n").headline() == "text: the output changed"


def drifted(tmp_path, old: str, new: str, **kwargs):
    first = compare(tmp_path, "p.md", "b", "snippets/p/b.py", old)
    write_atomic(first.path, first.actual)
    return compare(tmp_path, "p.md", "b", "snippets/p/b.py", new, **kwargs)


def test_compare_uses_plain_text_unless_given_a_classifier(tmp_path):
    assert drifted(tmp_path, "a b\n", "a  b\n").kind == COSMETIC
    assert drifted(tmp_path, "a b\n", "a c\n").kind == TEXT
    seen = []

    def runtime(old: str, new: str) -> Drift:
        seen.append((old, new))
        return Drift(STRUCTURAL, ["the program changed"], "aligned")

    result = drifted(tmp_path, "a b\n", "a c\n", classify=runtime)
    assert (result.status, result.kind) == ("drifted", STRUCTURAL)
    assert result.notes() == ["structural: the program changed"]
    assert result.drift().diff == "aligned"
    assert seen == [("a b\n", "a c\n")]


def test_a_changed_count_is_text_drift_whatever_the_classifier_says(tmp_path):
    first = compare(tmp_path, "p.md", "b", "s.py", "out\n", [Fact("n", "exact", "1")])
    write_atomic(first.path, first.actual)
    result = compare(tmp_path, "p.md", "b", "s.py", "out \n", [Fact("n", "exact", "2")])
    assert result.kind == TEXT
    assert result.drift().changes == ["only whitespace changed", "n = 1 -> 2"]


def test_drift_is_parsed_and_classified_once(tmp_path, monkeypatch):
    """The report, review and serve's warning each ask a comparison for its drift."""
    result = drifted(tmp_path, "a b\n", "a c\n")
    parsed, classified = [], []
    real_parse = golden_compare.parse
    monkeypatch.setattr(
        golden_compare, "parse", lambda text: parsed.append(text) or real_parse(text)
    )

    def counting(old: str, new: str) -> Drift:
        classified.append(old)
        return plain_text(old, new)

    result.classify = counting
    for _ in range(3):
        assert result.kind == TEXT
        assert result.notes() == ["text: the output changed"]
        assert result.drift() is result.drift()
    assert len(parsed) == 2  # the golden and this build's text, once each
    assert len(classified) == 1


def _list_defaults_given_tuples(text: str, where: str) -> list[str]:
    found = []
    tree = ast.parse(text, where)
    for node in ast.walk(tree):
        pairs = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            args = node.args
            positional = [*args.posonlyargs, *args.args]
            pairs += zip(
                positional[len(positional) - len(args.defaults) :], args.defaults, strict=True
            )
            pairs += [
                (a, d)
                for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True)
                if d is not None
            ]
            pairs = [(a.annotation, d, a.lineno) for a, d in pairs]
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            value = node.value
            if isinstance(value, ast.Call) and getattr(value.func, "id", "") == "field":
                value = next((k.value for k in value.keywords if k.arg == "default"), None)
            if value is not None:
                pairs.append((node.annotation, value, node.lineno))
        for annotation, default, line in pairs:
            typed = ast.unparse(annotation) if annotation is not None else ""
            if typed.startswith("list[") and isinstance(default, ast.Tuple):
                found.append(f"{where}:{line}: {typed} = {ast.unparse(default)}")
    return found


@pytest.mark.needs_book
def test_no_list_is_given_a_tuple_as_its_default():
    """A `list[...]` parameter or field defaulting to `()` lies about its type: a caller that
    appends to it fails only when the default is used."""
    found = [
        hit
        for path in sorted(HOOKS.rglob("*.py"))
        for hit in _list_defaults_given_tuples(path.read_text(), str(path.relative_to(REPO)))
    ]
    assert not found, "\n".join(found)


def test_the_tuple_default_check_finds_them():
    sample = (
        "from dataclasses import dataclass, field\n"
        "def f(facts: list[int] = (), *, claims: list[int] = ()): ...\n"
        "@dataclass\nclass C:\n    counts: list[str] = ()\n"
        "    more: list[str] = field(default=())\n"
    )
    assert len(_list_defaults_given_tuples(sample, "sample.py")) == 4


@pytest.mark.needs_book
def test_a_changes_counts_default_is_its_own_list():
    from jaxbook.jax_changes import Change

    one, two = Change("a", "text", []), Change("b", "text", [])
    one.counts.append(("n", "1", "2"))
    assert two.counts == [] and isinstance(two.counts, list)
