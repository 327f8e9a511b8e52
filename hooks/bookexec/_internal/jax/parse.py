"""Read printed jaxprs back into their structure, wherever they sit in a block's output.

A printed jaxpr is `{ lambda CONSTS ; INPUTS . let EQUATIONS in OUTPUTS }`. Each equation is
`OUTS = primitive[PARAMS] OPERANDS`; a parameter's value may itself be a jaxpr, or a tuple of
them (`cond`'s branches). JAX breaks lines only where it likes, so the parser reads tokens and
ignores line breaks. A long shared sub-jaxpr is printed once as `let NAME = { lambda ... } in`
before the jaxpr that uses it, and a parameter then says `jaxpr=NAME`: `Program.defs` keeps
those, and `resolve` follows such a name.

A parameter's value is read as text, except where it holds a jaxpr: alone (`jaxpr={ lambda
... }`), in a tuple mixing inline jaxprs and names of jaxprs printed earlier (`branches=( {
lambda ... } jaxpr1 )`), or inside any other printed value (`_LinearSolveTuple(matvec={
lambda ... }, ...)`): each is parsed as a jaxpr wherever it sits.

The reader also records where each part of the text is (`Span`): variables where they are
defined and where they are read, primitives, types, literals, parameter names and keywords.
The jaxpr lexer colours a jaxpr from these spans, and a renaming can rewrite exactly the
variables, so a variable called `ge` or `in` is never taken for the primitive `ge` or the
keyword `in`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# A primitive's name may hold hyphens: `scatter-add`, `scatter-mul`.
_PRIMITIVE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*")
# A literal: `2.0`, `-3`, `inf`, `1j`, `True`; complex and float0 ones print in parentheses,
# `(2-0.5j):c64[]`, `(b'',):float0[]`, and are read as balanced text up to their type.
_NUMBER = re.compile(r"-?(?:\d+\.?\d*(?:[eE][+-]?\d+)?j?|inf|nan)\b|True\b|False\b")
_DTYPE = re.compile(r"~?[a-z][a-z0-9_]*(?:<[^<>\s]*>)?")
_START = re.compile(r"(?:let ([A-Za-z_][A-Za-z0-9_]*) = )?\{ lambda\b")
# A type's annotations after the shape: the varying manual axes of shard_map, `{V:(x,y)}`.
_TYPE_SUFFIX = re.compile(r"\{[A-Z]+:[^{}\s]*\}")
_KEY = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)=(?!=)")
# A mutable array reference's type: `Ref{f32[8]}`, `Ref<default>{f32[8]}` (its memory space).
_REF_TYPE = re.compile(r"Ref(?:<[^<>\s]*>)?\{")
# A ref read or written by the state primitives, as JAX prints them (`get`, `swap`, `addupdate`):
# the ref, then its transforms, each `[...]` (an index) or `{...}` (`{bitcast(int32)}`).
_REF_ACCESS = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?=[\[{])")
_STATE_OPS = ("<-", "+=")
_OPEN = {"(": ")", "[": "]", "{": "}"}


class JaxprSyntaxError(ValueError):
    """Text that starts like a jaxpr but does not read as one; says where."""


@dataclass(frozen=True)
class Binder:
    """A variable where it is defined, with its type: `b:f32[3]` (`_` when never used)."""

    name: str
    type: str

    def text(self) -> str:
        """The binder as JAX prints it: `name:type`."""
        return f"{self.name}:{self.type}"


@dataclass(frozen=True)
class Operand:
    """What an equation or the output list reads: a variable, or a literal like `2.0:f32[]`."""

    text: str
    literal: bool


@dataclass
class Eqn:
    """One equation: its outputs, primitive, parameters and inputs."""

    outs: list[Binder]
    primitive: str
    params: dict[str, Param]  # in printed order
    ins: list[Operand]
    # Where the primitive and its parameters are in the parsed text: (start, end).
    op_span: tuple[int, int] = field(default=(0, 0), compare=False)


@dataclass
class Jaxpr:
    """One jaxpr: constants, inputs, equations and outputs."""

    constvars: list[Binder]
    invars: list[Binder]
    eqns: list[Eqn]
    outs: list[Operand]


@dataclass(frozen=True)
class Span:
    """Where one part of a jaxpr is in the text, and what part it is (`kind`, below)."""

    start: int
    end: int
    kind: str


# A span's kind: keyword, type, literal, primitive; binder: a variable where it is defined;
# var: where it is read; def: the name of a jaxpr printed as `let NAME = { ... } in`; ref: a
# parameter naming one; key: a parameter's name; value: a parameter's value when it is plain
# printed text (no jaxpr inside).
VARIABLE_KINDS = ("binder", "var")


@dataclass(frozen=True)
class Ref:
    """A parameter naming a jaxpr printed earlier as `let NAME = { lambda ... } in`."""

    name: str


@dataclass(frozen=True)
class Opaque:
    """A printed value holding jaxprs, as text pieces (whitespace folded) and the jaxprs."""

    parts: tuple[str | Jaxpr, ...]


# A parameter's value: its printed text, a jaxpr, a tuple of jaxprs and names of jaxprs, a
# named jaxpr, or another printed value with jaxprs inside.
Param = str | Jaxpr | tuple[Jaxpr | Ref, ...] | Ref | Opaque


@dataclass
class Program:
    """One printed jaxpr with the named sub-jaxprs printed before it."""

    main: Jaxpr
    defs: dict[str, Jaxpr] = field(default_factory=dict)


@dataclass
class Segment:
    """A piece of a block's output: plain text, or a jaxpr program with its source text."""

    text: str
    program: Program | None = None
    spans: list[Span] = field(default_factory=list)  # offsets into this segment's text


class _Reader:
    def __init__(self, text: str, start: int = 0) -> None:
        self.text = text
        self.pos = start
        self.def_names: set[str] = set()
        self.spans: list[Span] = []

    def mark(self, start: int, kind: str) -> None:
        """The text from `start` to the reader's position is one part, of this kind."""
        self.spans.append(Span(start, self.pos, kind))

    # -- low level ----------------------------------------------------------------------------

    def error(self, what: str) -> JaxprSyntaxError:
        line = self.text.count("\n", 0, self.pos) + 1
        column = self.pos - (self.text.rfind("\n", 0, self.pos) + 1) + 1
        snippet = self.text[self.pos : self.pos + 30].split("\n")[0]
        return JaxprSyntaxError(
            f"jaxpr, line {line}, column {column}: expected {what}, found {snippet!r}"
        )

    def skip_space(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def peek(self, literal: str) -> bool:
        self.skip_space()
        return self.text.startswith(literal, self.pos)

    def peek_word(self, word: str) -> bool:
        self.skip_space()
        match = _NAME.match(self.text, self.pos)
        return match is not None and match[0] == word

    def expect(self, literal: str, kind: str = "") -> None:
        if not self.peek(literal):
            raise self.error(repr(literal))
        self.pos += len(literal)
        if kind:
            self.mark(self.pos - len(literal), kind)

    def name(self, kind: str = "", pattern: re.Pattern[str] = _NAME) -> str:
        self.skip_space()
        match = pattern.match(self.text, self.pos)
        if not match:
            raise self.error("a name")
        self.pos = match.end()
        if kind:
            self.mark(match.start(), kind)
        return match[0]

    def keyword(self, word: str) -> None:
        if self.name("keyword") != word:
            self.spans.pop()
            raise self.error(repr(word))

    def balanced(self, stop: str, space_stops: bool = True) -> str:
        """Text up to whitespace or a `stop` character outside brackets (a parameter value)."""
        start, depth = self.pos, 0
        while self.pos < len(self.text):
            char = self.text[self.pos]
            if depth == 0 and ((space_stops and char.isspace()) or char in stop):
                break
            depth = self.step(depth, angles=True)
        if depth:
            raise self.error("a closing bracket")
        return self.text[start : self.pos]

    def step(self, depth: int, angles: bool = False) -> int:
        """Move past one character; the bracket depth after it. With `angles`, `<` before a
        name opens too (a type's `<...>`), and `>` closes."""
        char = self.text[self.pos]
        self.pos += 1
        if char in _OPEN or (angles and char == "<" and self._opens_angle(self.pos - 1)):
            return depth + 1
        closers = ")]}>" if angles else ")]}"
        return depth - 1 if char in closers and depth > 0 else depth

    def _opens_angle(self, at: int) -> bool:
        following = self.text[at + 1 : at + 2]
        return bool(following) and (following.isalpha() or following == "_")

    # -- grammar ------------------------------------------------------------------------------

    def type_(self) -> str:
        """`f32[3]`, `~f32[]`, `key<fry>[]`, `f32<host>[6@data,12@model]`, `f32[2]<host>`,

        and shard_map's varying manual axes after it: `f32[2,2]{V:(x,y)}`; a mutable array
        reference holds a type: `Ref{f32[8]}`, `Ref<default>{f32[8]}`.
        """
        if ref := _REF_TYPE.match(self.text, self.pos):
            self.pos = ref.end()
            self.type_()
            if not self.text.startswith("}", self.pos):
                raise self.error("'}' closing a Ref type")
            self.pos += 1
            self.spans = [s for s in self.spans if s.start < ref.start()]
            self.mark(ref.start(), "type")
            return self.text[ref.start() : self.pos]
        match = _DTYPE.match(self.text, self.pos)
        if not match or not self.text.startswith("[", match.end()):
            raise self.error("a type such as f32[3]")
        self.pos = match.end()
        self.pos = self.text.index("]", self.pos) + 1
        if self.text.startswith("<", self.pos):
            self.pos = self.text.index(">", self.pos) + 1
        if suffix := _TYPE_SUFFIX.match(self.text, self.pos):
            self.pos = suffix.end()
        self.mark(match.start(), "type")
        return self.text[match.start() : self.pos]

    def binders(self, stop: str) -> list[Binder]:
        found = []
        while not self.peek(stop):
            name = self.name("binder")
            if not self.text.startswith(":", self.pos):
                raise self.error(f"':' and a type after {name!r}")
            self.pos += 1
            found.append(Binder(name, self.type_()))
        return found

    def at_in(self) -> bool:
        """The keyword `in` before the outputs, not a variable named `in` (JAX has those).

        The outputs are `(a, b)` or one operand closing the jaxpr: `in a }`.
        """
        if not self.peek_word("in"):
            return False
        after = self.text[self.pos + 2 :].lstrip()
        if after.startswith("("):
            return True
        reader = _Reader(self.text, self.pos + 2)
        try:
            reader.operand()
        except JaxprSyntaxError:
            return False
        return reader.peek("}")

    def is_binder_next(self) -> bool:
        """An output binder (`c:f32[]`) starts the next equation; a literal never does."""
        self.skip_space()
        match = _NAME.match(self.text, self.pos)
        return (
            match is not None
            and self.text.startswith(":", match.end())
            and not _NUMBER.fullmatch(match[0])
        )

    def is_call_next(self) -> bool:
        """An equation with no outputs starts with its primitive and parameters: `cond[`."""
        self.skip_space()
        match = _PRIMITIVE.match(self.text, self.pos)
        return match is not None and self.text.startswith("[", match.end())

    def operand(self) -> Operand:
        self.skip_space()
        start = self.pos
        number = _NUMBER.match(self.text, self.pos)
        if number or self.text.startswith("(", self.pos):
            if number:
                self.pos = number.end()
            else:
                self.balanced(":", space_stops=False)
            self.mark(start, "literal")
            if self.text.startswith(":", self.pos):
                self.pos += 1
                self.type_()
            elif not number:
                raise self.error("':' and a type after a literal")
            return Operand(self.text[start : self.pos], literal=True)
        return Operand(self.name("var"), literal=False)

    def operands_until(self, done: Callable[[], bool]) -> list[Operand]:
        found = []
        while not done():
            found.append(self.operand())
        return found

    def params(self) -> dict[str, Param]:
        params: dict[str, Param] = {}
        if not self.text.startswith("[", self.pos):
            return params
        self.pos += 1
        while not self.peek("]"):
            key = self.name("key")
            self.expect("=")
            params[key] = self.param_value(key)
        self.pos += 1
        return params

    def param_value(self, key: str) -> Param:
        self.skip_space()
        if self.text.startswith("{ lambda", self.pos):
            return self.jaxpr()
        if self.text.startswith("(", self.pos) and (items := self.jaxpr_tuple()) is not None:
            return items
        start = self.pos
        if self.text.startswith(self.name_ahead(), self.pos) and key != "name":
            name = self.name_ahead()
            end = self.pos + len(name)
            if name in self.def_names and self.value_ends(end):
                self.pos = end
                self.mark(start, "ref")
                return Ref(name)
        parts = self.free_value()
        if not parts or parts == [""]:
            raise self.error("a parameter value")
        if len(parts) == 1 and isinstance(parts[0], str):
            self.mark(start, "value")
            return parts[0]
        return Opaque(tuple(parts))

    def name_ahead(self) -> str:
        match = _NAME.match(self.text, self.pos)
        return match[0] if match else "\0"

    def value_ends(self, pos: int) -> bool:
        """Whether a parameter's value ends at `pos`: then comes `]` or the next `key=`."""
        rest = self.text[pos:]
        after = rest.lstrip()
        if after.startswith("]"):
            return True
        return bool(rest[:1].isspace() and _KEY.match(after))

    def jaxpr_tuple(self) -> tuple[Jaxpr | Ref, ...] | None:
        """`( { lambda ... } jaxpr1 )`: inline jaxprs and names of earlier ones, or None."""
        saved, spans = self.pos, len(self.spans)
        self.pos += 1
        items: list[Jaxpr | Ref] = []
        while not self.peek(")"):
            if self.peek("{ lambda"):
                items.append(self.jaxpr())
            elif (name := self.name_ahead()) in self.def_names:
                start = self.pos
                self.pos += len(name)
                self.mark(start, "ref")
                items.append(Ref(name))
            else:
                break
            if self.peek(","):
                self.pos += 1
        if not items or not self.peek(")"):
            self.pos = saved
            del self.spans[spans:]
            return None
        self.pos += 1
        return tuple(items)

    def free_value(self) -> list[str | Jaxpr]:
        """A printed value up to `]` or the next `key=`, reading any jaxpr inside it.

        Free text such as a format string may hold spaces, `=` and braces, so the value goes
        on until the next `name=` (or the closing `]`) outside brackets.
        """
        parts: list[str | Jaxpr] = []
        text_start = self.pos
        depth = 0
        while self.pos < len(self.text):
            char = self.text[self.pos]
            if self.text.startswith("{ lambda", self.pos):
                parts.append(" ".join(self.text[text_start : self.pos].split()))
                parts.append(self.jaxpr())
                text_start = self.pos
                continue
            if depth == 0 and char == "]":
                break
            if depth == 0 and char.isspace() and self.value_ends(self.pos):
                break
            depth = self.step(depth)
        if depth:
            raise self.error("a closing bracket")
        parts.append(" ".join(self.text[text_start : self.pos].split()))
        if len(parts) > 1:
            parts = [p for p in parts if p != ""]
        return parts

    def is_state_next(self) -> bool:
        """A state equation without outputs starts with a ref and its transforms, then `<-` or
        `+=`: `f[...] <- i`, `f[0:2] += i` (a call `cond[...] a` has operands after its `]`)."""
        self.skip_space()
        saved, spans = self.pos, len(self.spans)
        try:
            if not _REF_ACCESS.match(self.text, self.pos):
                return False
            self.ref_access()
            self.skip_space()
            return self.text.startswith(_STATE_OPS, self.pos)
        except JaxprSyntaxError:
            return False
        finally:
            self.pos = saved
            del self.spans[spans:]

    def ref_access(self) -> tuple[Operand, str, list[Operand]]:
        """`f[...]`, `f[a,0:4]`, `f[b:b+2]`, `f{bitcast(int32)}[...]`: the ref, its transforms
        as text with every variable an index reads written `·`, and those variables in order."""
        ref = Operand(self.name("var"), literal=False)
        pieces: list[str] = []
        reads: list[Operand] = []
        if not self.text.startswith(("[", "{"), self.pos):
            raise self.error(f"an index such as [...] after the ref {ref.text!r}")
        while self.text.startswith(("[", "{"), self.pos):
            if self.text[self.pos] == "{":  # a transform: static text, brackets balanced
                start, depth = self.pos, self.step(0)
                while depth and self.pos < len(self.text):
                    depth = self.step(depth)
                if depth:
                    raise self.error("'}' closing a ref transform")
                pieces.append(self.text[start : self.pos])
                continue
            self.pos += 1  # an index: integers, slices, `...`, and variables it reads
            pieces.append("[")
            while not self.text.startswith("]", self.pos):
                if self.pos >= len(self.text) or self.text[self.pos] in "[{}\n":
                    raise self.error("']' closing an index")
                if name := _NAME.match(self.text, self.pos):
                    self.pos = name.end()
                    self.mark(name.start(), "var")
                    reads.append(Operand(name[0], literal=False))
                    pieces.append("·")
                else:
                    pieces.append(self.text[self.pos])
                    self.pos += 1
            self.pos += 1
            pieces.append("]")
        return ref, "".join(pieces), reads

    def state_op(self, op: str) -> tuple[int, int]:
        self.skip_space()
        if not self.text.startswith(op, self.pos):
            raise self.error(repr(op))
        self.pos += len(op)
        self.mark(self.pos - len(op), "primitive")
        return self.pos - len(op), self.pos

    def state_eqn(self) -> Eqn | None:
        """The state primitives as JAX prints them, or None when the next equation is another:

        `g:f32[8] <- d[...]` (get), `j:f32[8], f[...] <- f[...], i` (swap), `f[...] <- i` (swap
        whose old value is dropped: a set), `f[...] += i` (addupdate). Each becomes an equation
        of its primitive with the ref's transforms as its `index` parameter, reading the ref,
        then the value written, then the variables the index reads.
        """
        self.skip_space()
        saved, spans = self.pos, len(self.spans)
        outs: list[Binder] = []
        if self.is_binder_next():
            name = self.name("binder")
            self.pos += 1  # the ':' is_binder_next saw
            outs.append(Binder(name, self.type_()))
            self.skip_space()
            if not self.text.startswith(("<-", ","), self.pos):
                self.pos = saved
                del self.spans[spans:]
                return None
            if self.text.startswith("<-", self.pos):  # get
                op_span = self.state_op("<-")
                ref, index, reads = self.ref_access()
                return self.state_end(Eqn(outs, "get", {"index": index}, [ref, *reads], op_span))
            self.pos += 1  # swap: `y:T, ref[i] <- ref[i], v`
            self.skip_space()
            ref, index, reads = self.ref_access()
            op_span = self.state_op("<-")
            self.skip_space()
            again, index_again, reads_again = self.ref_access()
            if (again, index_again, reads_again) != (ref, index, reads):
                raise self.error(f"the ref {ref.text}{index} again after '<-'")
            self.expect(",")
            value = self.operand()
            eqn = Eqn(outs, "swap", {"index": index}, [ref, value, *reads], op_span)
            return self.state_end(eqn)
        if not self.is_state_next():
            return None
        ref, index, reads = self.ref_access()
        self.skip_space()
        op = "<-" if self.text.startswith("<-", self.pos) else "+="
        op_span = self.state_op(op)
        value = self.operand()
        primitive = "swap" if op == "<-" else "addupdate"
        return self.state_end(Eqn([], primitive, {"index": index}, [ref, value, *reads], op_span))

    def state_end(self, eqn: Eqn) -> Eqn:
        if self.peek(";"):
            self.pos += 1
        return eqn

    def eqn(self) -> Eqn:
        if (state := self.state_eqn()) is not None:
            return state
        outs = []
        if self.is_binder_next():
            outs = self.binders("=")
            self.expect("=")
        primitive = self.name("primitive", _PRIMITIVE)
        op_start = self.spans[-1].start
        if self.peek("="):
            raise self.error(f"':' and a type after {primitive!r}")
        params = self.params()
        op_span = (op_start, self.pos)
        ins = self.operands_until(
            lambda: (
                self.is_binder_next()
                or self.at_in()
                or self.peek(";")
                or self.is_call_next()
                or self.is_state_next()
            )
        )
        if self.peek(";"):  # equations on one line are separated by semicolons
            self.pos += 1
        return Eqn(outs, primitive, params, ins, op_span)

    def outputs(self) -> list[Operand]:
        self.skip_space()
        if not self.text.startswith("(", self.pos):
            return [self.operand()]
        self.pos += 1
        found = []
        while not self.peek(")"):
            found.append(self.operand())
            if self.peek(","):
                self.pos += 1
        self.pos += 1
        return found

    def jaxpr(self) -> Jaxpr:
        self.skip_space()
        start = self.pos
        self.expect("{")
        if self.name() != "lambda":
            raise self.error("'lambda'")
        self.mark(start, "keyword")
        constvars = self.binders(";")
        self.expect(";")
        invars = self.binders(".")
        self.expect(".")
        self.keyword("let")
        eqns = []
        while not self.at_in():
            if self.pos >= len(self.text):
                raise self.error("'in'")
            eqns.append(self.eqn())
        self.keyword("in")
        outs = self.outputs()
        self.expect("}", "keyword")
        return Jaxpr(constvars, invars, eqns, outs)

    def program(self) -> Program:
        """`[let NAME = { lambda ... } in]* { lambda ... }`"""
        defs: dict[str, Jaxpr] = {}
        while self.peek_word("let"):
            self.keyword("let")
            name = self.name("def")
            self.expect("=")
            self.def_names.add(name)
            defs[name] = self.jaxpr()
            if not self.peek_word("in"):
                raise self.error("'in' after a named jaxpr")
            self.keyword("in")
        return Program(self.jaxpr(), defs)


def parse_jaxpr(text: str) -> Jaxpr:
    """One jaxpr, and nothing else but whitespace around it."""
    program = parse_program(text)
    if program.defs:
        raise JaxprSyntaxError("expected one jaxpr, found named sub-jaxprs before it")
    return program.main


def parse_program(text: str) -> Program:
    """One printed program (named sub-jaxprs, then the jaxpr), and nothing else."""
    reader = _Reader(text)
    program = reader.program()
    reader.skip_space()
    if reader.pos != len(text):
        raise reader.error("the end of the jaxpr")
    return program


def split_output(text: str) -> list[Segment]:
    """A block's output as text and jaxpr segments, in order; the segments join to the text."""
    segments: list[Segment] = []
    pos = 0
    while (match := _START.search(text, pos)) is not None:
        reader = _Reader(text, match.start())
        program = reader.program()
        if match.start() > pos:
            segments.append(Segment(text[pos : match.start()]))
        start = match.start()
        spans = [Span(s.start - start, s.end - start, s.kind) for s in reader.spans]
        segments.append(Segment(text[start : reader.pos], program, sorted(spans, key=_order)))
        pos = reader.pos
    if pos < len(text):
        segments.append(Segment(text[pos:]))
    return segments


def _order(span: Span) -> tuple[int, int]:
    return span.start, span.end


def resolve(value: Param, defs: dict[str, Jaxpr]) -> Param:
    """A parameter naming a jaxpr printed earlier, replaced by that jaxpr; others unchanged."""
    return defs.get(value.name, value) if isinstance(value, Ref) else value


def is_jaxpr(text: str) -> bool:
    """Whether an output prints a jaxpr: the one test the book's census, fence and runtime use."""
    return "{ lambda " in text
