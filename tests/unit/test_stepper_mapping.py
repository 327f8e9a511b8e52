"""The trace stepper's mapping, taken from real JAX: which line of a function recorded which
equation (what JAX itself records in each equation's source info), nested equations under
their parent, the prints that fired while tracing and at which line, and whether a later call
traced again."""

from __future__ import annotations

import html
import json
import linecache
import re

import jax
import jax.numpy as jnp
import pytest
from jax import lax

from bookexec._internal.render.stepper_html import stepper_html
from bookexec.jax import stepper


def _define(source: str, name: str, filename: str):
    """A function from source text registered in linecache, as the worker registers a
    block's shown code."""
    lines = source.splitlines(keepends=True)
    linecache.cache[filename] = (len(source), None, lines, filename)
    scope = {"jax": jax, "jnp": jnp, "lax": lax}
    exec(compile(source, filename, "exec"), scope)
    return scope[name]


RELU = """\
def relu_affine(x):
    y = 2 * x + 1
    print("tracing with", x)
    return jnp.maximum(y, 0)
"""


def test_each_equation_labelled_with_the_line_jax_recorded() -> None:
    fn = _define(RELU, "relu_affine", "<stepper-relu>")
    steps = stepper.trace_steps(fn, 2.0)
    assert [s["number"] for s in steps["source"]] == [1, 2, 3, 4]
    eqns = [line for line in steps["jaxpr"] if line["eqn"]]
    assert [(e["text"].split("=")[1].split()[0], e["line"]) for e in eqns] == [
        ("mul", 2),
        ("add", 2),
        ("max", 4),
    ]
    # the comment JAX prints after each equation is the label, not part of the text
    assert all("#" not in line["text"] for line in steps["jaxpr"])
    # the print fired once, at line 3, which recorded no equation
    assert [(p["line"], p["text"]) for p in steps["prints"]] == [
        (3, "tracing with JitTracer(~float32[])")
    ]


def test_nested_equations_sit_under_their_parent() -> None:
    src = """\
def scanned(h):
    def body(c, _):
        c = jnp.tanh(c) * 0.5
        return c, c

    c, _ = lax.scan(body, h, None, length=3)
    return c
"""
    fn = _define(src, "scanned", "<stepper-scan>")
    steps = stepper.trace_steps(fn, 1.0)
    lines = steps["jaxpr"]
    scan = next(i for i, line in enumerate(lines) if "scan[" in line["text"])
    assert lines[scan]["line"] == 6 and lines[scan]["eqn"] and lines[scan]["depth"] == 0
    tanh = next(i for i, line in enumerate(lines) if "tanh" in line["text"])
    assert tanh > scan and lines[tanh]["line"] == 3 and lines[tanh]["depth"] == 1
    # the scan's parameters and closing bracket belong to the scan
    close = next(i for i, line in enumerate(lines) if line["text"].strip().startswith("]"))
    assert lines[close]["line"] == 6 and not lines[close]["eqn"]


def test_unrolled_loop_records_every_step_on_the_body_line() -> None:
    src = """\
def unrolled(h):
    for _ in range(3):
        h = jnp.tanh(h)
    return h
"""
    fn = _define(src, "unrolled", "<stepper-for>")
    steps = stepper.trace_steps(fn, 1.0)
    eqns = [line for line in steps["jaxpr"] if line["eqn"]]
    assert [e["line"] for e in eqns] == [3, 3, 3]


def test_later_calls_say_whether_they_traced_again() -> None:
    fn = _define(RELU, "relu_affine", "<stepper-calls>")
    steps = stepper.trace_steps(fn, 2.0, again=[(3.0,), (jnp.ones(3),)])
    # the first call, then each of `again`
    assert [(c["args"], c["traced"]) for c in steps["calls"]] == [
        ("f32[]", True),
        ("f32[]", False),
        ("f32[3]", True),
    ]
    assert [c["prints"] for c in steps["calls"]] == [
        ["tracing with JitTracer(~float32[])"],
        [],
        ["tracing with JitTracer(float32[3])"],  # not weak: an array
    ]


def test_a_line_jax_did_not_attribute_is_recorded_as_none() -> None:
    src = """\
def branchy(x):
    return lax.cond(x > 0, jnp.cos, jnp.sin, x)
"""
    fn = _define(src, "branchy", "<stepper-cond>")
    steps = stepper.trace_steps(jax.vmap(fn), jnp.ones(3))
    eqns = [line for line in steps["jaxpr"] if line["eqn"]]
    assert any("select_n" in e["text"] and e["line"] == 2 for e in eqns)
    assert {e["line"] for e in eqns} <= {2, None}


def test_the_mapping_is_one_plain_line_the_golden_compares() -> None:
    fn = _define(RELU, "relu_affine", "<stepper-fact>")
    described = stepper.describe(fn, 2.0)
    assert described.startswith(stepper.PREFIX) and "\n" not in described
    assert json.loads(described[len(stepper.PREFIX) :])["jaxpr"]


def test_a_function_without_source_is_refused_with_its_name() -> None:
    # A file name no other test has put in linecache: under `eval`'s own "<string>", a test
    # that ran earlier in the same process may have left lines that inspect would find.
    code = compile("lambda x: x + 1", "<stepper-test: no source anywhere>", "eval")
    with pytest.raises(ValueError, match="source"):
        stepper.trace_steps(eval(code), 1.0)


def test_the_summary_says_which_line_recorded_what_in_one_short_line() -> None:
    fn = _define(RELU, "relu_affine", "<stepper-summary>")
    assert stepper.summary(stepper.trace_steps(fn, 2.0)) == "2: mul add | 3: print | 4: max"
    src = """\
def scanned(h):
    def body(c, _):
        c = jnp.tanh(c) * 0.5
        return c, c

    c, _ = lax.scan(body, h, None, length=3)
    return c
"""
    nested = _define(src, "scanned", "<stepper-summary-scan>")
    assert stepper.summary(stepper.trace_steps(nested, 1.0)) == "3: >tanh >mul | 6: scan"


def test_an_equation_recorded_in_a_helper_is_labelled_with_the_line_that_called_it() -> None:
    # JAX's traceback holds every frame; the innermost is the helper's, outside the function
    # stepped through: the line shown is the function's own frame in that traceback.
    src = """\
def cell(h):
    return jnp.tanh(h * 0.5 + 1.0)


def python_for(h, n):
    for _ in range(n):
        h = cell(h)
    return h
"""
    fn = _define(src, "python_for", "<stepper-helper>")
    steps = stepper.trace_steps(fn, 1.0, 2, static_argnums=(1,))
    assert stepper.summary(steps) == "7: mul add tanh mul add tanh"
    assert [s["number"] for s in steps["source"]] == [5, 6, 7, 8]


def test_a_jitted_function_already_called_still_shows_its_prints() -> None:
    # its first call cached the trace: the stepper must run the Python again to see the print
    fn = jax.jit(_define(RELU, "relu_affine", "<stepper-jitted>"))
    fn(2.0)
    steps = stepper.trace_steps(fn, 2.0, again=[(3.0,)])
    assert stepper.summary(steps) == "2: mul add | 3: print | 4: max"
    assert [c["traced"] for c in steps["calls"]] == [True, False]


def test_a_program_short_enough_for_one_line_still_gets_a_line_per_equation() -> None:
    # JAX prints a short jaxpr on one line; the stepper needs each equation on its own
    src = """\
def scaled(x):
    return x * 10
"""
    fn = _define(src, "scaled", "<stepper-one-line>")
    lines = stepper.trace_steps(fn, jnp.ones(3))["jaxpr"]
    assert [line["text"].strip() for line in lines] == [
        "{ lambda ; a:f32[3]. let",
        "b:f32[3] = mul a 10.0:f32[]",
        "in (b,) }",
    ]
    assert [(line["eqn"], line["line"]) for line in lines] == [
        (False, None),
        (True, 2),
        (False, None),
    ]


def test_a_line_holding_a_loop_counts_its_body_apart_from_it() -> None:
    """A line that records a `scan` says one equation, the count of the program's own
    equations, with its body's beside it; a body defined on another line says it is nested."""
    src = """\
def scanned(h):
    def body(c, _):
        c = jnp.tanh(c) * 0.5
        return c, c

    c, _ = lax.scan(body, h, None, length=3)
    c, _ = lax.scan(lambda c, _: (jnp.sin(c), None), c, None, length=2)
    return jnp.cos(c)
"""
    fn = _define(src, "scanned", "<stepper-scan-counts>")
    page = stepper_html("s", stepper.trace_steps(fn, 1.0), "")
    said = {
        int(n): html.unescape(what)
        for n, what in re.findall(r'id="stepper-s-src-(\d+)">.*?class="eb-what">([^<]*)<', page)
    }
    assert said[3] == "records 2 equations nested in another equation's body"
    assert said[6] == "records 1 equation"
    assert said[7] == "records 1 equation, with 1 more nested inside"
    assert said[8] == "records 1 equation"
    assert said[4] == "records nothing"
