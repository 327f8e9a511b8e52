"""Compare two outputs that print jaxprs, as programs rather than as text.

A new JAX often re-letters variables, wraps lines differently or reorders parameters without
changing the program: that drift is *cosmetic*. A primitive added, removed or renamed, a
parameter's value, a type or shape, or where an equation reads its inputs from is
*structural*. Both still fail the check (the text is what readers see); the class only tells a
reviewer where to look, and for structural drift an aligned equation-by-equation diff marks
what really changed. Adding one equation re-letters every later variable, so equations are
first aligned by what they compute (primitive, parameters, types), and only then is the data
flow compared through the correspondence of old and new variables that the alignment gives.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from bookexec._internal.goldens.compare import COSMETIC, STRUCTURAL, TEXT, Drift
from bookexec._internal.jax.parse import (
    Binder,
    Eqn,
    Jaxpr,
    JaxprSyntaxError,
    Opaque,
    Operand,
    Param,
    Program,
    Ref,
    Segment,
    resolve,
    split_output,
)

_COLLAPSED = "{…}"
# The jaxprs printed before the one compared (`let name = { ... }`), by name.
_Defs = dict[str, Jaxpr]
# A field of an equation that a caret marks: ("prim",), ("param", name), ("in", i), ("out", i).
_Mark = tuple[str | int, ...]
# A nested jaxpr's diff under its parameter's name: (name, lines).
_Nested = tuple[str, list[str]]
_SAME_PROGRAM = (
    "the same program: only variable letters, line wrapping, parameter order "
    "or the order of independent equations changed"
)


# -- canonical form ---------------------------------------------------------------------------


def canonical_order(jaxpr: Jaxpr) -> list[Eqn]:
    """The equations in an order that does not depend on the order they were traced in.

    Depth first from the outputs, left to right, each equation after those it reads from;
    then whatever the outputs do not reach (effects, unused values) in printed order. Text
    that reads a value before defining it (not a jaxpr JAX prints, but a reader must not
    hang on it) is cut where the cycle closes.
    """
    producer = {b.name: i for i, e in enumerate(jaxpr.eqns) for b in e.outs if b.name != "_"}
    done: set[int] = set()
    started: set[int] = set()
    order: list[Eqn] = []

    def visit(start: int) -> None:
        stack = [(start, False)]
        while stack:
            index, expanded = stack.pop()
            if index in done:
                continue
            if expanded:
                done.add(index)
                order.append(jaxpr.eqns[index])
                continue
            if index in started:  # a cycle: already waiting for what it reads
                continue
            started.add(index)
            stack.append((index, True))
            reads = [producer.get(o.text) for o in jaxpr.eqns[index].ins if not o.literal]
            stack += [(i, False) for i in reversed(reads) if i is not None and i not in done]

    roots = [producer.get(o.text) for o in jaxpr.outs if not o.literal]
    for index in [*(i for i in roots if i is not None), *range(len(jaxpr.eqns))]:
        visit(index)
    return order


class _Scope:
    """One jaxpr's variables renamed v0, v1, ... in canonical order of definition."""

    def __init__(self, jaxpr: Jaxpr) -> None:
        self.names: dict[str, str] = {}
        self.eqns = canonical_order(jaxpr)
        for binder in [*jaxpr.constvars, *jaxpr.invars, *(b for e in self.eqns for b in e.outs)]:
            if binder.name != "_":
                self.names.setdefault(binder.name, f"v{len(self.names)}")

    def operand(self, operand: Operand) -> str:
        if operand.literal:
            return operand.text
        return self.names.get(operand.text, f"free:{operand.text}")

    def binder(self, binder: Binder) -> str:
        return f"{self.names.get(binder.name, '_')}:{binder.type}"


def _param_canon(value: Param, defs: dict[str, Jaxpr]) -> str:
    value = resolve(value, defs)
    if isinstance(value, Jaxpr):
        return "{" + canonical(value, defs) + "}"
    if isinstance(value, tuple):
        return "(" + " ".join(_param_canon(item, defs) for item in value) + ")"
    if isinstance(value, Opaque):
        return "".join(_param_canon(part, defs) for part in value.parts)
    if isinstance(value, Ref):
        return f"<unknown jaxpr {value.name}>"
    return value


def _params_canon(eqn: Eqn, defs: dict[str, Jaxpr]) -> str:
    return " ".join(f"{k}={_param_canon(eqn.params[k], defs)}" for k in sorted(eqn.params))


def canonical(jaxpr: Jaxpr, defs: dict[str, Jaxpr] | None = None) -> str:
    """The jaxpr with variables renamed by order of definition and parameters sorted."""
    defs = defs or {}
    scope = _Scope(jaxpr)
    lines = [
        "consts " + " ".join(map(scope.binder, jaxpr.constvars)),
        "ins " + " ".join(map(scope.binder, jaxpr.invars)),
    ]
    for eqn in scope.eqns:
        outs = " ".join(map(scope.binder, eqn.outs))
        ins = " ".join(map(scope.operand, eqn.ins))
        lines.append(f"{outs} = {eqn.primitive}[{_params_canon(eqn, defs)}] {ins}")
    lines.append("outs " + " ".join(map(scope.operand, jaxpr.outs)))
    return "\n".join(lines)


def _key(eqn: Eqn, defs: dict[str, Jaxpr]) -> str:
    """What an equation computes, blind to variable names: used to align two jaxprs."""
    outs = " ".join(b.type if b.name != "_" else "_:" + b.type for b in eqn.outs)
    ins = " ".join(o.text if o.literal else "·" for o in eqn.ins)
    return f"{outs} = {eqn.primitive}[{_params_canon(eqn, defs)}] {ins}"


# -- display ----------------------------------------------------------------------------------


def _param_shown(value: Param) -> str:
    if isinstance(value, Jaxpr):
        return _COLLAPSED
    if isinstance(value, tuple):
        return "(" + " ".join(map(_param_shown, value)) + ")"
    if isinstance(value, Opaque):
        return "".join(map(_param_shown, value.parts))
    if isinstance(value, Ref):
        return value.name
    return value


def _eqn_parts(eqn: Eqn) -> list[tuple[object, str, bool]]:
    """An equation on one line as (field, text, glued) parts; nested jaxprs shown as {…}.

    A part marked glued follows the previous one with no space: `b:` then its type `f32[3]`,
    so a changed type is marked without its variable.
    """
    parts: list[tuple[object, str, bool]] = []
    for i, binder in enumerate(eqn.outs):
        parts += [(None, f"{binder.name}:", False), (("out", i), binder.type, True)]
    if eqn.outs:
        parts.append((None, "=", False))
    params = [(("param", k), f"{k}={_param_shown(v)}", False) for k, v in eqn.params.items()]
    parts.append((("prim",), eqn.primitive, False))
    if params:
        params[0] = (params[0][0], params[0][1], True)
        parts += [(None, "[", True), *params, (None, "]", True)]
    parts += [(("in", i), o.text, False) for i, o in enumerate(eqn.ins)]
    return parts


def _line(parts: list[tuple[object, str, bool]], marked: set[_Mark]) -> tuple[str, str]:
    """The joined text, and a caret line under the parts whose field is marked."""
    text, carets = "", ""
    for index, (name, piece, glued) in enumerate(parts):
        if index and not glued:
            text, carets = text + " ", carets + " "
        text += piece
        carets += ("^" if name in marked else " ") * len(piece)
    return text, carets.rstrip()


# -- comparison -------------------------------------------------------------------------------


@dataclass
class _Pair:
    old: Eqn | None
    new: Eqn | None


def _align(old: Jaxpr, new: Jaxpr, old_defs: _Defs, new_defs: _Defs) -> list[_Pair]:
    """Pair equations that compute the same thing, then same-primitive ones, then by position."""
    old_eqns, new_eqns = canonical_order(old), canonical_order(new)
    old_keys = [_key(e, old_defs) for e in old_eqns]
    new_keys = [_key(e, new_defs) for e in new_eqns]
    pairs: list[_Pair] = []
    matcher = difflib.SequenceMatcher(a=old_keys, b=new_keys, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            pairs += [
                _Pair(old_eqns[i], new_eqns[j])
                for i, j in zip(range(i1, i2), range(j1, j2), strict=True)
            ]
            continue
        pairs += _align_by_primitive(old_eqns[i1:i2], new_eqns[j1:j2])
    return pairs


def _alignments(old: Jaxpr, new: Jaxpr, old_defs: _Defs, new_defs: _Defs) -> list[list[_Pair]]:
    found = [_align(old, new, old_defs, new_defs)]
    if len(old.eqns) == len(new.eqns):
        pairs = zip(canonical_order(old), canonical_order(new), strict=True)
        found.append([_Pair(a, b) for a, b in pairs])
    return found


def _align_by_primitive(old: list[Eqn], new: list[Eqn]) -> list[_Pair]:
    pairs: list[_Pair] = []
    matcher = difflib.SequenceMatcher(
        a=[e.primitive for e in old], b=[e.primitive for e in new], autojunk=False
    )
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal" or (tag == "replace" and i2 - i1 == j2 - j1):
            pairs += [
                _Pair(old[i], new[j]) for i, j in zip(range(i1, i2), range(j1, j2), strict=True)
            ]
        else:
            pairs += [_Pair(old[i], None) for i in range(i1, i2)]
            pairs += [_Pair(None, new[j]) for j in range(j1, j2)]
    return pairs


def _same_param(a: Param, b: Param, old_defs: _Defs, new_defs: _Defs) -> bool:
    return _param_canon(a, old_defs) == _param_canon(b, new_defs)


class _JaxprDiff:
    """The aligned diff of two jaxprs: lines to show, and what changed in words."""

    def __init__(
        self, old: Jaxpr, new: Jaxpr, old_defs: _Defs, new_defs: _Defs, where: str = ""
    ) -> None:
        self.old, self.new = old, new
        self.old_defs, self.new_defs = old_defs, new_defs
        self.where = where
        self.lines: list[str] = []
        self.changes: list[str] = []
        self.mapping: dict[str, str] = {}

    def align(self) -> _JaxprDiff:
        """The diff under the alignment that shows the fewest changed lines.

        Aligning by what equations compute can pair an unchanged equation with a changed
        neighbour that computes the same thing; when both jaxprs have as many equations, the
        alignment by position in canonical order is tried too, and the smaller diff kept.
        """
        best = None
        for pairs in _alignments(self.old, self.new, self.old_defs, self.new_defs):
            attempt = _JaxprDiff(self.old, self.new, self.old_defs, self.new_defs, self.where)
            attempt._run(pairs)
            if best is None or attempt._cost() < best._cost():
                best = attempt
        assert best is not None  # _alignments always gives at least one alignment
        self.lines, self.changes, self.mapping = best.lines, best.changes, best.mapping
        return self

    def _run(self, pairs: list[_Pair]) -> None:
        self._header()
        for pair in pairs:
            if pair.old and pair.new:
                self._map(pair.old.outs, pair.new.outs)
        for pair in pairs:
            self._pair(pair)
        self._footer()

    def _cost(self) -> int:
        return sum(line[:1] in "+-~" for line in self.lines)

    def _say(self, change: str) -> None:
        self.changes.append(f"{self.where}{change}")

    def _map(self, old: list[Binder], new: list[Binder]) -> None:
        for a, b in zip(old, new, strict=False):
            if a.name != "_" and b.name != "_":
                self.mapping[a.name] = b.name

    def _header(self) -> None:
        old, new = self.old, self.new
        self._map(old.constvars, new.constvars)
        self._map(old.invars, new.invars)
        old_types = [b.type for b in old.constvars] + ["|"] + [b.type for b in old.invars]
        new_types = [b.type for b in new.constvars] + ["|"] + [b.type for b in new.invars]
        consts = " ".join(b.text() for b in new.constvars)
        text = f"{{ lambda {consts}{' ' if consts else ''}; "
        text += " ".join(b.text() for b in new.invars) + ". let"
        if old_types != new_types:
            was = " ".join(b.text() for b in [*old.constvars, *old.invars])
            self.lines += [f"~ {text}", f"    (inputs were: {was})"]
            self._say(f"input types changed: {_types(old)} -> {_types(new)}")
        else:
            self.lines.append(f"  {text}")

    def _footer(self) -> None:
        old_outs = [self._mapped(o) for o in self.old.outs]
        new_outs = [o.text for o in self.new.outs]
        text = f"in {_tuple(new_outs)} }}"
        if old_outs != new_outs:
            was = _tuple([o.text for o in self.old.outs])
            self.lines += [f"~ {text}", f"    (outputs were: {was})"]
            self._say("the jaxpr returns different values")
        else:
            self.lines.append(f"  {text}")

    def _mapped(self, operand: Operand) -> str:
        if operand.literal:
            return operand.text
        return self.mapping.get(operand.text, f"(old {operand.text})")

    def _pair(self, pair: _Pair) -> None:
        if pair.old is None:
            assert pair.new is not None  # a pair holds at least one equation
            text, _ = _line(_eqn_parts(pair.new), set())
            self.lines.append(f"+     {text}")
            self._say(f"primitive added: {pair.new.primitive}")
            return
        if pair.new is None:
            text, _ = _line(_eqn_parts(pair.old), set())
            self.lines.append(f"-     {text}")
            self._say(f"primitive removed: {pair.old.primitive}")
            return
        old, new = pair.old, pair.new
        old_marks: set[_Mark] = set()
        new_marks: set[_Mark] = set()
        nested: list[_Nested] = []
        if old.primitive != new.primitive:
            old_marks.add(("prim",))
            new_marks.add(("prim",))
            self._say(f"primitive renamed: {old.primitive} -> {new.primitive}")
        self._params(old, new, old_marks, new_marks, nested)
        self._outs(old, new, old_marks, new_marks)
        self._ins(old, new, old_marks, new_marks)
        new_text, new_carets = _line(_eqn_parts(new), new_marks)
        if not old_marks and not new_marks:
            self.lines.append(f"      {new_text}")
            return
        old_text, old_carets = _line(_eqn_parts(old), old_marks)
        self.lines.append(f"-     {old_text}")
        if old_carets.strip():
            self.lines.append(f"      {old_carets}")
        self.lines.append(f"+     {new_text}")
        if new_carets.strip():
            self.lines.append(f"      {new_carets}")
        for key, lines in nested:
            self.lines.append(f"      in {new.primitive}'s {key}:")
            self.lines += [f"{line[:2]}    {line[2:]}" for line in lines]

    def _params(
        self,
        old: Eqn,
        new: Eqn,
        old_marks: set[_Mark],
        new_marks: set[_Mark],
        nested: list[_Nested],
    ) -> None:
        prim = new.primitive
        added = [k for k in new.params if k not in old.params]
        removed = [k for k in old.params if k not in new.params]
        if added:
            new_marks.update(("param", k) for k in added)
            self._say(f"{prim} gained parameter{'s' * (len(added) > 1)} {', '.join(added)}")
        if removed:
            old_marks.update(("param", k) for k in removed)
            self._say(f"{prim} lost parameter{'s' * (len(removed) > 1)} {', '.join(removed)}")
        for key in (k for k in new.params if k in old.params):
            a, b = old.params[key], new.params[key]
            if _same_param(a, b, self.old_defs, self.new_defs):
                continue
            old_marks.add(("param", key))
            new_marks.add(("param", key))
            a, b = resolve(a, self.old_defs), resolve(b, self.new_defs)
            if isinstance(a, str) and isinstance(b, str):
                self._say(f"{prim}: {key} changed from {a} to {b}")
                continue
            inner = _nested(a, b, self.old_defs, self.new_defs, f"{self.where}{prim}.{key}: ")
            if inner is None:
                self._say(f"{prim}: {key} changed")
                continue
            for label, lines, changes in inner:
                nested.append((key + label, lines))
                self.changes += changes

    def _outs(self, old: Eqn, new: Eqn, old_marks: set[_Mark], new_marks: set[_Mark]) -> None:
        for i in range(max(len(old.outs), len(new.outs))):
            a = old.outs[i] if i < len(old.outs) else None
            b = new.outs[i] if i < len(new.outs) else None
            if a and b and a.type == b.type and (a.name == "_") == (b.name == "_"):
                continue
            if a:
                old_marks.add(("out", i))
            if b:
                new_marks.add(("out", i))
            if a and b and a.type != b.type:
                self._say(f"{new.primitive}: output type {a.type} -> {b.type}")
            elif a and b:
                now = "dropped" if b.name == "_" else "used"
                self._say(f"{new.primitive}: output {i + 1} is now {now}")
            else:
                self._say(f"{new.primitive}: number of outputs changed")

    def _ins(self, old: Eqn, new: Eqn, old_marks: set[_Mark], new_marks: set[_Mark]) -> None:
        if len(old.ins) != len(new.ins):
            old_marks.update(("in", i) for i in range(len(old.ins)))
            new_marks.update(("in", i) for i in range(len(new.ins)))
            self._say(f"{new.primitive}: {len(old.ins)} inputs -> {len(new.ins)}")
            return
        for i, (a, b) in enumerate(zip(old.ins, new.ins, strict=True)):
            if self._mapped(a) == b.text:
                continue
            old_marks.add(("in", i))
            new_marks.add(("in", i))
            if a.literal and b.literal:
                self._say(f"{new.primitive}: literal {a.text} -> {b.text}")
            else:
                self._say(f"{new.primitive}: input {i + 1} reads a different value (data flow)")


def _jaxprs_in(value: Param, defs: _Defs) -> tuple[Jaxpr, ...] | None:
    """The jaxprs a parameter holds, when it is nothing but jaxprs around the same text."""
    if isinstance(value, Jaxpr):
        return (value,)
    if isinstance(value, tuple):
        items = tuple(resolve(item, defs) for item in value)
        jaxprs = tuple(item for item in items if isinstance(item, Jaxpr))
        return jaxprs if len(jaxprs) == len(items) else None
    if isinstance(value, Opaque):
        return tuple(part for part in value.parts if isinstance(part, Jaxpr))
    return None


def _outside_jaxprs(value: Param) -> tuple[str, ...]:
    """The text of an opaque value around its jaxprs; nothing for other values."""
    if isinstance(value, Opaque):
        return tuple(p if isinstance(p, str) else _COLLAPSED for p in value.parts)
    return ()


def _nested(
    a: Param, b: Param, old_defs: _Defs, new_defs: _Defs, where: str
) -> list[tuple[str, list[str], list[str]]] | None:
    """The diff of jaxpr-valued parameters, or None when they are not both jaxprs."""
    if _outside_jaxprs(a) != _outside_jaxprs(b):
        return None
    olds, news = _jaxprs_in(a, old_defs), _jaxprs_in(b, new_defs)
    if olds is None or news is None or len(olds) != len(news):
        return None
    found: list[tuple[str, list[str], list[str]]] = []
    for index, (x, y) in enumerate(zip(olds, news, strict=True)):
        if canonical(x, old_defs) == canonical(y, new_defs):
            continue
        label = f"[{index}]" if len(olds) > 1 else ""
        inner = _JaxprDiff(x, y, old_defs, new_defs, where.rstrip(": ") + label + ": ").align()
        found.append((label, inner.lines, inner.changes))
    return found


def _tuple(items: list[str]) -> str:
    return f"({items[0]},)" if len(items) == 1 else "(" + ", ".join(items) + ")"


def _types(jaxpr: Jaxpr) -> str:
    return "(" + ", ".join(b.type for b in [*jaxpr.constvars, *jaxpr.invars]) + ")"


# -- whole outputs ----------------------------------------------------------------------------


def diff_jaxprs(old: Program, new: Program) -> tuple[list[str], list[str]]:
    """The aligned diff lines and the changes in words, for two printed jaxprs.

    A named jaxpr printed before the program (`let NAME = { ... } in`) that changed is
    diffed too, under its name: the program may use it inside a printed value.
    """
    lines, changes = [], []
    old_defs, new_defs = list(old.defs.items()), list(new.defs.items())
    if len(old_defs) != len(new_defs):
        changes.append(f"{len(old_defs)} named jaxprs -> {len(new_defs)}")
    for (old_name, a), (new_name, b) in zip(old_defs, new_defs, strict=False):
        if canonical(a, old.defs) == canonical(b, new.defs):
            continue
        result = _JaxprDiff(a, b, old.defs, new.defs, f"{new_name}: ").align()
        lines += [f"  let {new_name} =", *result.lines, "  in"]
        changes += result.changes or [f"named jaxpr {old_name} changed"]
    result = _JaxprDiff(old.main, new.main, old.defs, new.defs).align()
    return lines + result.lines, changes + result.changes


def _program_canon(program: Program) -> list[str]:
    """The program blind to names: its named jaxprs in printed order, then the main one."""
    return [
        *(canonical(j, program.defs) for j in program.defs.values()),
        canonical(program.main, program.defs),
    ]


def same_program(old: Program, new: Program) -> bool:
    """Whether two printed programs are the same, blind to names, wrapping and order."""
    return _program_canon(old) == _program_canon(new)


def _text_lines(segments: list[Segment]) -> list[str]:
    """The output's text outside jaxprs, exactly, with a marker where each jaxpr was.

    Nothing here is forgiven, blank lines included: a cosmetic drift may be accepted without
    a second look, so only what is inside a jaxpr may differ.
    """
    return [s.text if s.program is None else "<jaxpr>" for s in segments]


def compare(old: str, new: str) -> Drift | None:
    """How two block outputs differ, jaxprs read as programs; None when the text is equal."""
    if old == new:
        return None
    unreadable = [
        f"unreadable jaxpr in {which}: {problem}; compared as text"
        for which, text in (("the golden", old), ("the new output", new))
        if (problem := _unreadable(text))
    ]
    if unreadable:  # a form this parser does not know yet: the text diff says what changed
        return Drift(TEXT, unreadable)
    old_segments, new_segments = split_output(old), split_output(new)
    old_programs = [s.program for s in old_segments if s.program]
    new_programs = [s.program for s in new_segments if s.program]
    text: list[str] = []
    if _text_lines(old_segments) != _text_lines(new_segments):
        where = "the text around the jaxprs" if old_programs or new_programs else "the output"
        text.append(f"{where} changed")
    if len(old_programs) != len(new_programs):
        return Drift(STRUCTURAL, [f"{len(old_programs)} jaxprs -> {len(new_programs)}", *text])
    changes: list[str] = []
    diffs: list[str] = []
    for index, (a, b) in enumerate(zip(old_programs, new_programs, strict=True), start=1):
        if same_program(a, b):
            continue
        lines, words = diff_jaxprs(a, b)
        words = words or ["the program changed"]  # never a silent cosmetic
        label = f"jaxpr {index} of {len(new_programs)}" if len(new_programs) > 1 else "jaxpr"
        prefix = f"{label}: " if len(new_programs) > 1 else ""
        changes += [prefix + word for word in _unique(words)]
        diffs.append(f"{label}:\n" + "\n".join(lines))
    if changes:
        return Drift(STRUCTURAL, changes + text, "\n".join(diffs))
    return Drift(TEXT, text) if text else Drift(COSMETIC)


def classify(old: str, new: str) -> Drift:
    """The book's classifier for a golden's drifted output: jaxprs read as programs, and the
    same program printed differently is cosmetic."""
    drift = compare(old, new)
    if drift is None or (drift.kind == COSMETIC and not drift.changes):
        return Drift(COSMETIC, [_SAME_PROGRAM])
    return drift


def _unreadable(text: str) -> str | None:
    """Where a jaxpr in the text cannot be read, as `line L, column C: ...`; None if none.

    A newer JAX can print a form this parser has never seen; that must show as a text diff
    with the place it stopped, never crash the check and never pass as cosmetic.
    """
    try:
        split_output(text)
    except JaxprSyntaxError as error:
        return str(error).removeprefix("jaxpr, ")
    except Exception as error:  # a bug of the reader is reported the same way
        return f"the reader failed: {error!r}"
    return None


def _unique(words: list[str]) -> list[str]:
    seen: dict[str, int] = {}
    for word in words:
        seen[word] = seen.get(word, 0) + 1
    return [word if n == 1 else f"{word} (x{n})" for word, n in seen.items()]
