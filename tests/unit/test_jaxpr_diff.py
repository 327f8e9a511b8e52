"""Jaxprs read as programs: the parser, the canonical form, and the class of a drift."""

from __future__ import annotations

import ast
import re

import jax
import jax.numpy as jnp
import pytest
from jax import lax
from jax.experimental import pallas as pl

from bookexec._internal.goldens.store import parse as parse_golden
from bookexec._internal.jax.diff import COSMETIC, STRUCTURAL, TEXT, classify, compare
from bookexec._internal.jax.parse import (
    VARIABLE_KINDS,
    Jaxpr,
    JaxprSyntaxError,
    parse_jaxpr,
    resolve,
    split_output,
)
from conftest import REPO, jaxpr_goldens, suite_files

# A scan jaxpr printed by JAX 0.11.0, quoted from the seed article (data, not code).
SEED_SCAN = (REPO / "tests" / "data" / "seed-scan-jax-0.11.0.txt").read_text()


def jaxpr(f, *args) -> str:
    return str(jax.make_jaxpr(f)(*args)) + "\n"


def reletter(text: str) -> str:
    """The same program with every one-letter variable shifted by one letter."""
    return re.sub(r"\b([a-y])\b(?=:| |\)|,|;|\n)", lambda m: chr(ord(m[1]) + 1), text)


def nested(jaxpr_: Jaxpr):
    """Every jaxpr inside a parsed one, itself included."""
    yield jaxpr_
    for eqn in jaxpr_.eqns:
        for value in eqn.params.values():
            for inner in value if isinstance(value, tuple) else (value,):
                if isinstance(inner, Jaxpr):
                    yield from nested(inner)


def test_the_parser_reads_every_jaxpr_in_the_goldens():
    found = 0
    for path in jaxpr_goldens():
        output = parse_golden(path.read_text()).output
        segments = split_output(output)
        assert "".join(s.text for s in segments) == output, path
        programs = [s.program for s in segments if s.program]
        jaxprs = [j for p in programs for top in [p.main, *p.defs.values()] for j in nested(top)]
        # Every `{ lambda` in the text is a jaxpr the parser read, nested ones included.
        assert len(jaxprs) == output.count("{ lambda"), path
        if programs:
            # Each jaxpr reprinted on one line reads as the same program.
            flat = "".join(" ".join(s.text.split()) if s.program else s.text for s in segments)
            assert flat == output or compare(output, flat).kind == COSMETIC, path
        found += len(jaxprs)
    assert found >= 30


def test_a_parsed_equation_has_its_parts():
    parsed = parse_jaxpr(SEED_SCAN)
    assert [b.text() for b in parsed.invars] == ["a:f32[]", "b:f32[1000]"]
    (scan,) = parsed.eqns
    assert scan.primitive == "scan"
    assert [b.text() for b in scan.outs] == ["c:f32[]", "d:f32[1000]"]
    assert [o.text for o in scan.ins] == ["a", "b"]
    assert scan.params["length"] == "1000"
    body = scan.params["jaxpr"]
    assert isinstance(body, Jaxpr) and body.eqns[0].primitive == "add"
    assert [o.text for o in parsed.outs] == ["c", "d"]


def test_literals_constants_and_named_sub_jaxprs():
    closed = jax.make_jaxpr(lambda x: x * jnp.arange(3.0) + 2.0)(jnp.ones(3))
    parsed = parse_jaxpr(str(closed))
    assert len(parsed.constvars) == len(closed.jaxpr.constvars)
    literal = [o for e in parsed.eqns for o in e.ins if o.literal]
    assert [o.text for o in literal] == ["2.0:f32[]"]
    golden = (REPO / "tests/golden/randomness/uniform-jaxpr.txt").read_text()
    (program,) = [s.program for s in split_output(parse_golden(golden).output) if s.program]
    assert list(program.defs) == ["_uniform"]
    assert resolve(program.main.eqns[0].params["jaxpr"], program.defs) is program.defs["_uniform"]


def test_a_malformed_jaxpr_is_an_error_naming_the_line_and_column():
    expected = r"line 2, column 7: expected ':' and a type after 'b'"
    with pytest.raises(JaxprSyntaxError, match=expected):
        parse_jaxpr("{ lambda ; a:f32[]. let\n    b = sin a\n  in (b,) }")


def test_re_lettering_is_cosmetic():
    old = jaxpr(lambda x: jnp.sin(x) * 2.0 + 1.0, 1.0)
    new = reletter(old)
    assert new != old
    assert compare(old, new).kind == COSMETIC


def test_the_same_function_traced_in_two_orders_is_cosmetic():
    def sines_first(x, y):
        a = jnp.sin(x)
        b = jnp.cos(y)
        return a * b

    def cosines_first(x, y):
        b = jnp.cos(y)
        a = jnp.sin(x)
        return a * b

    old, new = jaxpr(sines_first, 1.0, 2.0), jaxpr(cosines_first, 1.0, 2.0)
    assert old != new
    assert compare(old, new).kind == COSMETIC


def test_line_wrapping_and_parameter_order_are_cosmetic():
    ours = jaxpr(lambda c, xs: lax.scan(lambda t, x: (t + x, t), c, xs), 0.0, jnp.ones(5))
    one_line = " ".join(ours.split()) + "\n"
    lines = ours.splitlines(keepends=True)
    length = next(i for i, line in enumerate(lines) if "length=" in line)
    lines[length], lines[length + 1] = lines[length + 1], lines[length]  # reverse=, then length=
    swapped = "".join(lines)
    assert len({ours, one_line, swapped}) == 3
    assert compare(ours, one_line).kind == COSMETIC
    assert compare(ours, swapped).kind == COSMETIC


def test_equations_on_one_line_are_separated_by_semicolons():
    wrapped = jaxpr(lambda x: jnp.sin(x) * 2.0 + jnp.cos(x), 1.0)
    head, *eqns, tail = wrapped.splitlines()
    one_line = f"{head} {'; '.join(e.strip() for e in eqns)} {tail.strip()}\n"
    assert len(parse_jaxpr(one_line).eqns) == 4
    assert compare(wrapped, one_line).kind == COSMETIC


def test_an_added_stop_gradient_is_structural_and_marks_only_what_changed():
    old = jaxpr(lambda x: jnp.sin(x) * 2.0 + jnp.cos(x), 1.0)
    new = jaxpr(lambda x: jnp.sin(lax.stop_gradient(x)) * 2.0 + jnp.cos(x), 1.0)
    drift = compare(old, new)
    assert drift.kind == STRUCTURAL
    assert drift.changes == [
        "primitive added: stop_gradient",
        "sin: input 1 reads a different value (data flow)",
    ]
    lines = drift.diff.splitlines()
    assert next(line for line in lines if line.startswith("+")).split() == [
        "+",
        "b:f32[]",
        "=",
        "stop_gradient",
        "a",
    ]
    # Every later variable is re-lettered, yet mul, cos and add are shown as unchanged.
    shown = [line for line in lines if line.startswith("      ") and " = " in line]
    unchanged = [line.split(" = ")[1].split()[0] for line in shown]
    assert sorted(unchanged) == ["add", "cos", "mul"]
    # Under sin's new line, one caret: its input.
    plus_sin = next(i for i, line in enumerate(lines) if line.startswith("+") and "sin" in line)
    carets = lines[plus_sin + 1]
    assert carets.strip() == "^" and lines[plus_sin][carets.index("^")] == "b"


def test_the_seed_scan_against_ours_is_structural_new_parameters():
    def running(total, x):
        return total + x, total

    ours = jaxpr(lambda c, xs: lax.scan(running, c, xs), jnp.float32(0.0), jnp.ones(1000))
    drift = compare(SEED_SCAN, ours)
    assert drift.kind == STRUCTURAL
    assert drift.changes == ["scan gained parameters ft_in, ft_out"]
    lines = drift.diff.splitlines()
    new = next(line for line in lines if line.startswith("+"))
    carets = lines[lines.index(new) + 1]
    marked = re.findall(r"\^+", carets)
    starts = [m.start() for m in re.finditer(r"\^+", carets)]
    assert [new[s : s + len(m)].split("=")[0] for s, m in zip(starts, marked, strict=True)] == [
        "ft_in",
        "ft_out",
    ]
    # length, reverse, unroll and the body are the same: no caret under them.
    for name in ("length=", "reverse=", "unroll=", "jaxpr="):
        assert carets[new.index(name) : new.index(name) + len(name)].strip() == ""


def test_a_changed_parameter_value_is_structural():
    drift = compare(jaxpr(lambda x: x**2, 1.0), jaxpr(lambda x: x**3, 1.0))
    assert drift.kind == STRUCTURAL
    assert drift.changes == ["integer_pow: y changed from 2 to 3"]


def test_manual_axes_in_a_type_are_part_of_it():
    # Inside shard_map a type says which mesh axes a value varies over: {V:...}.
    text = (
        "{ lambda ; a:f32[3,3]{V:(data,model)}. let\n"
        "    b:f32[3]{V:data} = psum_invariant[axes=('model',)] a\n"
        "  in (b,) }"
    )
    parsed = parse_jaxpr(text)
    assert [b.text() for b in parsed.invars] == ["a:f32[3,3]{V:(data,model)}"]
    assert [b.text() for b in parsed.eqns[0].outs] == ["b:f32[3]{V:data}"]
    drift = compare(text, text.replace("{V:data} =", "{V:(data,model)} ="))
    assert drift.kind == STRUCTURAL
    assert "psum_invariant: output type f32[3]{V:data} -> f32[3]{V:(data,model)}" in drift.changes


def _stateful(x):
    ref = jax.new_ref(x)
    ref[1:3] = ref[0:2] + 1.0
    jax.ref.addupdate(ref, ..., x)
    old = jax.ref.swap(ref, (slice(None),), x)
    return jax.ref.freeze(ref) + old


def _kernel(x_ref, o_ref):
    i = pl.program_id(0)
    o_ref[pl.ds(i, 2)] = x_ref[pl.ds(i, 2)] * 2.0


def _pallas(x):
    out = jax.ShapeDtypeStruct(x.shape, x.dtype)
    return pl.pallas_call(_kernel, out_shape=out, grid=(2,), interpret=True)(x)


def test_refs_and_the_state_primitives_are_read_as_equations():
    # A mutable array's type holds its value's type (and a memory space); get, swap and
    # addupdate print as `<-` and `+=` on the ref's index, which may read variables.
    text = jaxpr(_stateful, jnp.ones(4))
    parsed = parse_jaxpr(text)
    assert [b.text() for b in parsed.eqns[0].outs] == ["b:Ref{f32[4]}"]
    assert [(e.primitive, e.params.get("index"), len(e.outs)) for e in parsed.eqns] == [
        ("new_ref", None, 1),
        ("get", "[:2]", 1),
        ("add", None, 1),
        ("swap", "[1:3]", 0),  # its old value dropped: printed `b[1:3] <- d`, a set
        ("addupdate", "[...]", 0),
        ("swap", "[:]", 1),
        ("freeze", None, 1),
        ("add", None, 1),
    ]
    assert [o.text for o in parsed.eqns[3].ins] == ["b", "d"]  # the ref, the value written
    # Renamed where the parser found each variable, the refs an index names included.
    segment, end = split_output(text)  # the jaxpr, then its line end
    renamed = segment.text
    for span in sorted(segment.spans, key=lambda s: -s.start):
        if span.kind in VARIABLE_KINDS:
            renamed = (
                f"{renamed[: span.start]}v{renamed[span.start : span.end]}{renamed[span.end :]}"
            )
    assert "vb[1:3] <- vd" in renamed
    assert compare(text, renamed + end.text).kind == COSMETIC
    drift = compare(text, text.replace("b[1:3] <- d", "b[2:4] <- d"))
    assert drift.kind == STRUCTURAL
    assert "swap: index changed from [1:3] to [2:4]" in drift.changes
    assert compare(text, text.replace("+= a", "+= c")).kind == STRUCTURAL  # reads another value

    program = split_output(jaxpr(_pallas, jnp.ones(4)))[0].program
    kernel = resolve(program.main.eqns[0].params["jaxpr"], program.defs)
    assert [b.type for b in kernel.invars] == ["Ref<default>{f32[4]}"] * 2
    x_ref, o_ref = (b.name for b in kernel.invars)
    (i,) = (b.name for b in kernel.eqns[0].outs)  # the program id
    get, times_two, swap = kernel.eqns[1:]
    # pl.ds(i, 2) prints as `[i:i+2]`: the index reads the program id twice
    assert (get.primitive, get.params["index"]) == ("get", "[·:·+2]")
    assert [o.text for o in get.ins] == [x_ref, i, i]
    assert swap.primitive == "swap"
    assert [o.text for o in swap.ins] == [o_ref, times_two.outs[0].name, i, i]


def test_a_changed_shape_is_structural():
    drift = compare(jaxpr(lambda x: x * 2.0, jnp.ones(3)), jaxpr(lambda x: x * 2.0, jnp.ones(4)))
    assert drift.kind == STRUCTURAL
    assert drift.changes == [
        "input types changed: (f32[3]) -> (f32[4])",
        "mul: output type f32[3] -> f32[4]",
    ]


def test_changed_data_flow_with_the_same_primitives():
    drift = compare(jaxpr(lambda x, y: x - y, 1.0, 2.0), jaxpr(lambda x, y: y - x, 1.0, 2.0))
    assert drift.kind == STRUCTURAL
    assert "sub: input 1 reads a different value (data flow)" in drift.changes


def test_a_change_inside_a_nested_jaxpr_is_shown_there():
    old = jaxpr(lambda p, x: lax.cond(p, jnp.sin, jnp.cos, x), True, 1.0)
    new = jaxpr(lambda p, x: lax.cond(p, jnp.sin, jnp.tan, x), True, 1.0)
    drift = compare(old, new)
    assert drift.changes == ["cond.branches[0]: primitive renamed: cos -> tan"]
    assert "in cond's branches[0]:" in drift.diff


def test_text_outside_jaxprs():
    assert compare("first: 1\n", "first: 1\n") is None
    drift = compare("first: 1\n", "first: 2\n")
    assert (drift.kind, drift.changes) == (TEXT, ["the output changed"])
    around = jaxpr(lambda x: x + 1.0, 1.0)
    drift = compare("one:\n" + around, "two:\n" + reletter(around))
    assert (drift.kind, drift.changes) == (TEXT, ["the text around the jaxprs changed"])
    assert compare("one:\n" + around, "one:\n\n" + around).kind == TEXT  # even a blank line


def test_a_drifted_golden_carries_its_class_and_aligned_diff_to_the_serve_warning(tmp_path):
    from bookexec._internal.files import write_atomic
    from bookexec._internal.goldens.compare import compare as compare_golden
    from bookexec._internal.render.fence import drift_warning

    old = jaxpr(lambda x: jnp.sin(x) * 2.0 + jnp.cos(x), 1.0)
    new = jaxpr(lambda x: jnp.sin(lax.stop_gradient(x)) * 2.0 + jnp.cos(x), 1.0)
    first = compare_golden(tmp_path, "p.md", "b", "snippets/p/b.py", old, classify=classify)
    write_atomic(first.path, first.actual)
    drifted = compare_golden(tmp_path, "p.md", "b", "snippets/p/b.py", new, classify=classify)
    assert (drifted.status, drifted.kind) == ("drifted", STRUCTURAL)
    assert drifted.notes()[0].startswith("structural: primitive added: stop_gradient")
    warning = drift_warning(drifted, tmp_path)
    assert compare(old, new).diff.replace(">", "&gt;") in warning.replace("&#x27;", "'")


def test_an_unreadable_jaxpr_is_text_drift_with_its_position_never_cosmetic():
    """A form a newer JAX might print: the check says where it stopped and diffs the text."""
    good = jaxpr(lambda x: jnp.sin(x) * 2.0, 1.0)
    future = good.replace("sin a", "sin a %% a new form")
    assert "%%" in future
    for old, new, which in ((future, good, "the golden"), (good, future, "the new output")):
        drift = compare(old, new)
        assert drift is not None and drift.kind == TEXT
        line = next(i for i, row in enumerate(future.splitlines(), 1) if "%%" in row)
        column = future.splitlines()[line - 1].index("%%") + 1
        expected = f"text: unreadable jaxpr in {which}: line {line}, column {column}: expected"
        assert drift.headline().startswith(expected), drift.headline()
        assert drift.headline().endswith("; compared as text")
    # Re-lettering an unreadable jaxpr is not silently cosmetic either.
    assert compare(future, reletter(future)).kind == TEXT


def test_jaxprs_inside_printed_values_and_mixed_branch_tuples_are_parsed():
    from test_jaxpr_corpus import renamed

    from bookexec._internal.jax.parse import Opaque, Ref

    solve = jaxpr(jnp.linalg.solve, jnp.eye(3) * 2.0, jnp.ones(3))
    assert "_LinearSolveTuple(matvec={ lambda" in solve
    (program,) = [s.program for s in split_output(solve) if s.program]
    opaque = [v for j in nested(program.main) for e in j.eqns for v in e.params.values()] + [
        v
        for d in program.defs.values()
        for j in nested(d)
        for e in j.eqns
        for v in e.params.values()
    ]
    tuples = [v for v in opaque if isinstance(v, Opaque)]
    assert tuples and all(any(isinstance(p, Jaxpr) for p in v.parts) for v in tuples)
    # A change inside a jaxpr held in a printed value is structural; renaming is cosmetic.
    one = solve.rstrip("\n")  # the corpus renaming reads one jaxpr and nothing else
    assert compare(one, renamed(one, "seed")[0]).kind == COSMETIC
    inner = solve.index("_LinearSolveTuple(matvec={ lambda")
    changed = solve[:inner] + solve[inner:].replace("] a b", "] b a", 1)  # matvec's operands
    drift = compare(solve, changed)
    assert drift is not None and drift.kind == STRUCTURAL, drift
    assert "dot_general: input 1 reads a different value" in drift.headline()

    diag = jaxpr(jnp.diag, jnp.ones((3, 3)))
    assert re.search(r"\}\s+jaxpr\s+\)", diag), "a tuple mixing inline and named jaxprs"
    (program,) = [s.program for s in split_output(diag) if s.program]
    branches = [
        v
        for top in [program.main, *program.defs.values()]
        for j in nested(top)
        for e in j.eqns
        for k, v in e.params.items()
        if k == "branches"
    ]
    mixed = [b for b in branches if any(isinstance(x, Ref) for x in b)]
    assert mixed and all(isinstance(x, Jaxpr | Ref) for x in mixed[0])
    diag = diag.rstrip("\n")  # the corpus renaming reads one jaxpr and nothing else
    assert compare(diag, renamed(diag, "seed")[0]).kind == COSMETIC
    # A naive re-lettering merges `y` and `z` into one name: a cycle in the data flow, which
    # the comparison must call structural, not hang on.
    assert compare(diag, reletter(diag)).kind == STRUCTURAL


def _used_names(paths, imports_only: bool = False) -> set[str]:
    """Identifiers code uses: names, attributes and imported names (or imported names only)."""
    names: set[str] = set()
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.alias):
                names.add(node.name.rpartition(".")[2])
            elif imports_only:
                continue
            elif isinstance(node, ast.Name):
                names.add(node.id)
            elif isinstance(node, ast.Attribute):
                names.add(node.attr)
    return names


def test_every_public_name_of_the_jaxpr_modules_is_used():
    """No dead code: each public function or class is used by the engine, registered in
    pyproject.toml (the lexer), or imported by a test."""
    hooks = _used_names((REPO / "hooks").rglob("*.py"))
    tests = _used_names(suite_files(), imports_only=True)
    registered = (REPO / "hooks" / "pyproject.toml").read_text()
    # A runtime names what the worker runs by its dotted path (the worker imports it by name).
    named = {
        node.value.rpartition(".")[2]
        for path in (REPO / "hooks").rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
        if node.value.startswith("bookexec._internal.jax.")
    }
    unused = [
        f"{path.name}: {node.name}"
        for path in sorted((REPO / "hooks" / "bookexec" / "_internal" / "jax").glob("*.py"))
        for node in ast.parse(path.read_text()).body
        if isinstance(node, ast.FunctionDef | ast.ClassDef) and not node.name.startswith("_")
        if node.name not in hooks | tests | named and f":{node.name}" not in registered
    ]
    assert not unused, unused


def test_a_named_jaxpr_is_resolved_in_one_place():
    from bookexec._internal.jax import diff, parse

    assert not hasattr(parse.Program, "resolve")
    assert diff.resolve is parse.resolve


def test_is_jaxpr_is_the_one_test_for_a_printed_jaxpr():
    """`"{ lambda " in text` is written once, in the parser; the census, the fence and the
    runtime ask `is_jaxpr`."""
    from bookexec._internal.jax.parse import is_jaxpr

    assert is_jaxpr(jaxpr(jnp.sin, 1.0)) and not is_jaxpr("lambda x: x")
    tests = [
        f"{path.relative_to(REPO)}:{node.lineno}"
        for path in sorted((REPO / "hooks").rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(), str(path)))
        if isinstance(node, ast.Compare)
        and isinstance(node.ops[0], ast.In | ast.NotIn)
        and isinstance(node.left, ast.Constant)
        and "{ lambda" in str(node.left.value)
    ]
    assert len(tests) == 1 and tests[0].startswith("hooks/bookexec/_internal/jax/parse.py:"), tests
