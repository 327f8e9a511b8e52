"""The jaxpr reader on everything JAX prints: a corpus made at test time from the pinned JAX.

`tests/jaxpr_corpus.py` prints a jaxpr for each of several hundred functions and
transformations of JAX's public API, in one subprocess with 8 host CPU devices. For each one:

1. parse: `split_output` reads it as exactly one program, and the segments join back to the text;
2. rename: a consistent renaming of every variable (nested jaxprs and jaxprs inside printed
   parameter values included) is classed cosmetic;
3. mutations: changing one primitive, one parameter value, one type, or the order of two
   dependent equations is classed structural, with carets under the change;
4. lexer: the jaxpr lexer yields no Error token, leaves no part of the jaxpr unclassified, and
   marks each variable, primitive and type where the parser found it.

A failure names the function and the first failing position (line and column). The test
prints one line with the count of jaxprs each property was checked on and held for.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import re
import subprocess
import sys
from collections.abc import Callable

import pytest
from pygments.lexers import get_lexer_by_name
from pygments.token import Error, Keyword, Name, Text

from bookexec._internal.jax.diff import COSMETIC, STRUCTURAL, compare
from bookexec._internal.jax.parse import (
    VARIABLE_KINDS,
    Jaxpr,
    JaxprSyntaxError,
    Opaque,
    Segment,
    split_output,
)
from conftest import REPO

GENERATOR = REPO / "tests" / "jaxpr_corpus.py"
MIN_FUNCTIONS = 300
MUTATIONS = ("primitive", "parameter", "type", "order")
PROPERTIES = ("parse", "rename", *MUTATIONS, "lexer")
NOT_APPLICABLE = "n/a"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> list[dict]:
    out = tmp_path_factory.mktemp("corpus") / "corpus.json"
    env = {k: v for k, v in os.environ.items() if k != "XLA_FLAGS"}
    done = subprocess.run(
        [sys.executable, str(GENERATOR), str(out)],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(out.read_text())


# -- positions and names ----------------------------------------------------------------------


def where(text: str, pos: int) -> str:
    line = text.count("\n", 0, pos) + 1
    column = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return f"line {line}, column {column}"


def jax_name(index: int) -> str:
    """JAX's variable names in order: a..z, ba..zz, baa...: base 26 without a leading 'a'."""
    letters = ""
    while True:
        letters = chr(ord("a") + index % 26) + letters
        index //= 26
        if not index:
            return letters


def only_program(text: str) -> Segment:
    (segment,) = split_output(text)
    assert segment.program is not None
    return segment


def replace(text: str, start: int, end: int, new: str) -> str:
    return text[:start] + new + text[end:]


# -- the properties ---------------------------------------------------------------------------
# Each returns None when it holds, NOT_APPLICABLE when the jaxpr has nothing to change that way,
# or what failed and where.


def check_parse(text: str) -> str | None:
    try:
        segments = split_output(text)
    except JaxprSyntaxError as error:
        return f"does not parse: {error}"
    if "".join(s.text for s in segments) != text:
        return "the segments do not join back to the text"
    programs = [s for s in segments if s.program is not None]
    if len(programs) != 1 or len(segments) != 1:
        first = next((s for s in segments if s.program is None), segments[0])
        return (
            f"read as {len(programs)} programs in {len(segments)} segments; "
            f"first text segment at {where(text, text.find(first.text))}"
        )
    return None


def renamed(text: str, seed: str) -> tuple[str, dict[str, str]]:
    """Every variable renamed consistently, everywhere, to a shuffled JAX-style name."""
    spans = [s for s in only_program(text).spans if s.kind in VARIABLE_KINDS]
    names = list(dict.fromkeys(text[s.start : s.end] for s in spans if text[s.start] != "_"))
    targets = [jax_name(i) for i in range(len(names) + 1)]
    random.Random(seed).shuffle(targets)
    mapping = dict(zip(names, targets, strict=False))
    if names and all(mapping[n] == n for n in names):  # make sure something changes
        mapping[names[0]] = targets[-1]
    for span in reversed(spans):
        old = text[span.start : span.end]
        text = replace(text, span.start, span.end, mapping.get(old, old))
    return text, mapping


def check_rename(text: str, seed: str) -> str | None:
    new, mapping = renamed(text, seed)
    if new == text:
        return NOT_APPLICABLE
    drift = compare(text, new)
    if drift is None or drift.kind != COSMETIC:
        changed = next((i for i, (a, b) in enumerate(zip(text, new, strict=False)) if a != b), 0)
        said = drift.headline() if drift else "no drift"
        return f"renaming {len(mapping)} variables (first at {where(text, changed)}): {said}"
    return None


def carets_under(diff: str, token: str, prefix: bool = False) -> bool:
    """Whether some caret line of the aligned diff marks exactly `token` in the line above
    (or, with `prefix`, a part that starts with it)."""
    lines = diff.splitlines()
    for above, line in itertools.pairwise(lines):
        if "^" not in line or not set(line.strip()) <= {"^", " "}:
            continue
        for run in re.finditer(r"\^+", line):
            marked = above[run.start() : run.end()]
            if marked == token or (prefix and marked.startswith(token)):
                return True
    return False


def check_structural(
    text: str, mutated: str, pos: int, token: str, extra: Callable[[str], bool] | None = None
) -> str | None:
    """The mutated text must read, be structural, and mark `token` with carets."""
    try:
        drift = compare(text, mutated)
    except Exception as error:  # the check must never crash
        return f"change at {where(text, pos)} crashed the comparison: {error!r}"
    if drift is None or drift.kind != STRUCTURAL:
        said = drift.headline() if drift else "no drift"
        return f"change at {where(text, pos)} to {token!r} classed {said}"
    if not carets_under(drift.diff, token) and not (extra and extra(drift.diff)):
        return f"change at {where(text, pos)}: no carets under {token!r} in\n{drift.diff}"
    return None


def pick(items: list, seed: str):
    return random.Random(seed).choice(items) if items else None


def check_primitive(text: str, seed: str) -> str | None:
    span = pick([s for s in only_program(text).spans if s.kind == "primitive"], seed)
    if span is None:
        return NOT_APPLICABLE
    new = "mul" if text[span.start : span.end] == "add" else "add"
    return check_structural(text, replace(text, span.start, span.end, new), span.start, new)


def changed_value(value: str) -> str:
    """One parameter value changed: a digit, a boolean, None, or else a suffix."""
    if digit := re.search(r"\d", value):
        return replace(value, digit.start(), digit.end(), str((int(digit[0]) + 1) % 10))
    for old, new in (("True", "False"), ("False", "True"), ("None", "1")):
        if found := re.search(rf"\b{old}\b", value):
            return replace(value, found.start(), found.end(), new)
    return value + "_x"


def check_parameter(text: str, seed: str) -> str | None:
    spans = only_program(text).spans
    span = pick([s for s in spans if s.kind == "value"], seed)
    if span is None:
        return NOT_APPLICABLE
    value = text[span.start : span.end]
    new = changed_value(value)
    key = next(s for s in reversed(spans) if s.kind == "key" and s.end < span.start)
    shown = f"{text[key.start : key.end]}={' '.join(new.split())}"
    mutated = replace(text, span.start, span.end, new)
    return check_structural(text, mutated, span.start, shown)


def changed_type(written: str) -> str:
    shape = written.index("[")
    if written.startswith("[]", shape):
        return replace(written, shape, shape + 2, "[1]")
    return replace(written, shape + 1, shape + 1, "9")


def check_type(text: str, seed: str) -> str | None:
    """The type of an equation's output (followed by `=`, where the equation starts)."""
    spans = [
        s
        for s in only_program(text).spans
        if s.kind == "type" and re.match(r"\s*=(?!=)", text[s.end :])
    ]
    span = pick(spans, seed)
    if span is None:
        return NOT_APPLICABLE
    new = changed_type(text[span.start : span.end])
    return check_structural(text, replace(text, span.start, span.end, new), span.start, new)


def jaxprs_within(value) -> list[Jaxpr]:
    """A jaxpr and every jaxpr inside its parameters, at any depth, outermost first."""
    if isinstance(value, Jaxpr):
        inner = [p for e in value.eqns for p in e.params.values()]
        return [value, *(j for p in inner for j in jaxprs_within(p))]
    if isinstance(value, tuple):
        return [j for item in value for j in jaxprs_within(item)]
    if isinstance(value, Opaque):
        return [j for part in value.parts for j in jaxprs_within(part)]
    return []


def dependent_pair(jaxpr: Jaxpr, text: str):
    """Two equations, the second reading the first, that compute different things.

    Searched in the jaxpr and then in the jaxprs nested in it; pairs whose primitive and
    parameters hold no jaxpr are preferred, so the swap moves one equation's work.
    """
    found = []
    for inner in jaxprs_within(jaxpr):
        for j, later in enumerate(inner.eqns):
            reads = {o.text for o in later.ins if not o.literal}
            for earlier in inner.eqns[:j]:
                if not reads & {b.name for b in earlier.outs}:
                    continue
                a, b = (text[e.op_span[0] : e.op_span[1]] for e in (earlier, later))
                if a != b:
                    found.append(("{ lambda" in a + b, earlier, later))
    found.sort(key=lambda item: item[0])
    return found[0][1:] if found else None


def check_order(text: str, seed: str) -> str | None:
    """Swap what two dependent equations compute: g(f(x)) becomes f(g(x))."""
    program = only_program(text).program
    pair = dependent_pair(program.main, text)
    if pair is None:
        return NOT_APPLICABLE
    first, second = (e.op_span for e in pair)
    a, b = text[first[0] : first[1]], text[second[0] : second[1]]
    mutated = replace(replace(text, *second, a), *first, b)
    # The aligned diff marks a moved primitive with carets (or, when both equations have the
    # same primitive, the parameter that moved), or else shows the two equations removed and
    # added where the alignment pairs them no other way.
    prims = [e.primitive for e in pair]
    params = [f"{k}=" for e in pair for k in e.params]

    def moved(diff: str) -> bool:
        if any(carets_under(diff, p) for p in prims):
            return True
        if prims[0] == prims[1] and any(carets_under(diff, p, prefix=True) for p in params):
            return True
        lines = diff.splitlines()
        return all(
            any(line.startswith(("-", "+")) and f" {p}" in line for line in lines) for p in prims
        )

    return check_structural(text, mutated, first[0], pair[1].primitive, moved)


LEXER_KINDS = {
    "binder": (Name.Variable,),
    "var": (Name, Name.Variable),
    "primitive": (Name.Function,),
    "type": (Keyword.Type,),
    "def": (Name.Function,),
}


def check_lexer(text: str) -> str | None:
    pos, by_start = 0, {}
    for start, kind, value in get_lexer_by_name("jaxpr").get_tokens_unprocessed(text):
        if start != pos:
            return f"a token starts at {where(text, start)}, the one before ended at {pos}"
        if kind in Error or (kind in Text and value.strip()):
            what = "an Error" if kind in Error else "an unclassified"
            return f"{what} token {value!r} at {where(text, pos)}"
        by_start[start] = (kind, value)
        pos += len(value)
    if pos != len(text):
        return f"the tokens stop at {where(text, pos)}"
    for span in only_program(text).spans:
        wanted = LEXER_KINDS.get(span.kind)
        if not wanted:
            continue
        kind, value = by_start.get(span.start, (None, ""))
        if kind not in wanted or value != text[span.start : span.end]:
            return (
                f"{span.kind} {text[span.start : span.end]!r} at {where(text, span.start)} "
                f"lexed as {kind} {value!r}"
            )
    return None


def check_case(name: str, text: str) -> dict[str, str | None]:
    """Each property's result for one jaxpr; properties after a parse failure are skipped."""
    results: dict[str, str | None] = {"parse": check_parse(text)}
    if results["parse"]:
        return results
    checks = {
        "rename": check_rename,
        "primitive": check_primitive,
        "parameter": check_parameter,
        "type": check_type,
        "order": check_order,
    }
    for prop, check in checks.items():
        try:
            results[prop] = check(text, f"{prop}:{name}")
        except Exception as error:
            results[prop] = f"the check crashed: {error!r}"
    results["lexer"] = check_lexer(text)
    return results


def summary(results: dict[str, dict[str, str | None]]) -> tuple[str, list[str]]:
    """The count line, and each failure naming the function, the property and where."""
    counts, failures = [], []
    for prop in PROPERTIES:
        checked = [r[prop] for r in results.values() if prop in r and r[prop] != NOT_APPLICABLE]
        held = sum(result is None for result in checked)
        counts.append(f"{prop} {held}/{len(checked)}")
    for name, result in results.items():
        failures += [f"{name}: {prop}: {r}" for prop, r in result.items() if r and r != "n/a"]
    return f"jaxpr corpus, {len(results)} functions: " + ", ".join(counts), failures


# -- the tests --------------------------------------------------------------------------------


def test_the_corpus_covers_at_least_300_functions(corpus):
    errors = [f"{c['name']}: {c['error']}" for c in corpus if "error" in c]
    assert errors == []
    names = [c["name"] for c in corpus]
    assert len(set(names)) == len(names) >= MIN_FUNCTIONS
    # Every family the issue names is in it.
    for family in (
        "jnp.sin",
        ".at[].add",
        "jnp.sort",
        "jnp.linalg.solve",
        "jnp.fft.fft",
        "lax.associative_scan",
        "lax.cond nested in scan",
        "jax.hessian",
        "jax.checkpoint policy dots_saveable",
        "jax.custom_vjp under grad",
        "jax.debug.print",
        "jax.random.normal (raw key)",
        "jsp.special.erf",
        "jax.nn.gelu",
        "jax.sharding.reshard",
        "jax.shard_map explicit (vma types)",
        "memory space: device_put to host",
        "over 700 variables",
        "no outputs",
    ):
        assert family in names, family
    long = next(c["text"] for c in corpus if c["name"] == "over 700 variables")
    assert re.search(r"\b[a-z]{3}:f32", long), "no three-letter variable names"


def test_every_jaxpr_in_the_corpus_reads_renames_mutates_and_lexes(corpus):
    results = {c["name"]: check_case(c["name"], c["text"]) for c in corpus if "text" in c}
    line, failures = summary(results)
    print(line)
    assert failures == [], "\n".join(failures[:20])
    applied = {p: sum(r.get(p) is None for r in results.values()) for p in PROPERTIES}
    assert applied["parse"] == applied["lexer"] == len(results) >= MIN_FUNCTIONS
    for prop in ("rename", *MUTATIONS):
        assert applied[prop] >= MIN_FUNCTIONS // 2, (prop, applied)


# Each check fails, naming the function and the position, when what it checks breaks.

SCATTER = """{ lambda ; a:f32[4] b:i32[2]. let
    c:f32[4] = scatter-add[indices_are_sorted=False mode=1] a b
    d:f32[4] = sin c
  in (d,) }"""


def test_a_parse_failure_names_the_function_and_the_position():
    results = {"broken": check_case("broken", SCATTER.replace("sin c", "sin c ?"))}
    _, failures = summary(results)
    assert len(failures) == 1
    assert failures[0].startswith("broken: parse: does not parse: jaxpr, line 3, column")


def test_a_renaming_classed_structural_fails(monkeypatch):
    from bookexec._internal.jax import diff as jaxpr_diff

    real = jaxpr_diff.canonical
    monkeypatch.setattr(jaxpr_diff, "canonical", lambda j, d=None: str(j) + real(j, d))
    failure = check_rename(SCATTER, "seed")
    assert failure and "renaming" in failure and "line 1, column" in failure


def test_a_mutation_classed_cosmetic_fails(monkeypatch):
    from bookexec._internal.jax import diff as jaxpr_diff

    monkeypatch.setattr(jaxpr_diff, "same_program", lambda a, b: True)
    for check in (check_primitive, check_parameter, check_type, check_order):
        failure = check(SCATTER, "seed")
        assert failure and "classed cosmetic" in failure and "line " in failure, check


def test_a_mutation_without_carets_fails(monkeypatch):
    from bookexec._internal.jax import diff as jaxpr_diff

    monkeypatch.setattr(
        jaxpr_diff, "_line", lambda parts, marked: (" ".join(p[1] for p in parts), "")
    )
    failure = check_primitive(SCATTER, "seed")
    assert failure and "no carets under" in failure


def test_the_lexer_check_fails_on_a_primitive_lexed_as_a_name(monkeypatch):
    # A variable named like a primitive: `ge` reads `ge`; the lexer must tell them apart.
    text = SCATTER.replace("d:f32[4] = sin c", "ge:bool[4] = ge c a\n    d:f32[4] = sin c")
    assert check_lexer(text) is None
    from bookexec._internal.jax import lexer as jaxpr_lexer

    real = jaxpr_lexer.JaxprLexer.get_tokens_unprocessed

    def plain(self, text):
        for start, kind, value in real(self, text):
            yield start, (Name if kind is Name.Function else kind), value

    monkeypatch.setattr(jaxpr_lexer.JaxprLexer, "get_tokens_unprocessed", plain)
    failure = check_lexer(text)
    assert failure and failure.startswith("primitive 'scatter-add' at line 2, column")
