"""Read printed jaxprs back into their structure, wherever they sit in a block's output.

A printed jaxpr is `{ lambda CONSTS ; INPUTS . let EQUATIONS in OUTPUTS }`. Each equation is
`OUTS = primitive[PARAMS] OPERANDS`; a parameter's value may itself be a jaxpr, or a tuple of
them (`cond`'s branches). JAX breaks lines only where it likes, so the parser reads tokens and
ignores line breaks. A long shared sub-jaxpr is printed once as `let NAME = { lambda ... } in`
before the jaxpr that uses it, and a parameter then says `jaxpr=NAME`: `Program.defs` keeps
those, and `resolve` follows such a name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NUMBER = re.compile(r"-?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|inf|nan)\b|True\b|False\b")
_DTYPE = re.compile(r"~?[a-z][a-z0-9_]*(?:<[^<>\s]*>)?")
# Inside shard_map a type says which manual axes a value varies over or is unreduced over.
_AXES_SUFFIX = re.compile(r"\{[A-Z]+:[^{}\s]*\}")
_START = re.compile(r"(?:let ([A-Za-z_][A-Za-z0-9_]*) = )?\{ lambda\b")
_TUPLE_OF_JAXPRS = re.compile(r"\(\s*\{ lambda\b")
_OPEN = {"(": ")", "[": "]", "{": "}"}


class JaxprSyntaxError(ValueError):
    """Text that starts like a jaxpr but does not read as one; says where."""


@dataclass(frozen=True)
class Binder:
    """A variable where it is defined, with its type: `b:f32[3]` (`_` when never used)."""

    name: str
    type: str

    def text(self) -> str:
        return f"{self.name}:{self.type}"


@dataclass(frozen=True)
class Operand:
    """What an equation or the output list reads: a variable, or a literal like `2.0:f32[]`."""

    text: str
    literal: bool


@dataclass
class Eqn:
    outs: list[Binder]
    primitive: str
    params: dict[str, Param]  # in printed order
    ins: list[Operand]


@dataclass
class Jaxpr:
    constvars: list[Binder]
    invars: list[Binder]
    eqns: list[Eqn]
    outs: list[Operand]


@dataclass(frozen=True)
class Ref:
    """A parameter naming a jaxpr printed earlier as `let NAME = { lambda ... } in`."""

    name: str


# A parameter's value: its printed text, a jaxpr, a tuple of jaxprs, or a named jaxpr.
Param = str | Jaxpr | tuple[Jaxpr, ...] | Ref


@dataclass
class Program:
    """One printed jaxpr with the named sub-jaxprs printed before it."""

    main: Jaxpr
    defs: dict[str, Jaxpr] = field(default_factory=dict)

    def resolve(self, value: Param) -> Param:
        if isinstance(value, Ref):
            return self.defs.get(value.name, value)
        return value


@dataclass
class Segment:
    """A piece of a block's output: plain text, or a jaxpr program with its source text."""

    text: str
    program: Program | None = None


class _Reader:
    def __init__(self, text: str, start: int = 0) -> None:
        self.text = text
        self.pos = start
        self.def_names: set[str] = set()

    # -- low level ----------------------------------------------------------------------------

    def error(self, what: str) -> JaxprSyntaxError:
        line = self.text.count("\n", 0, self.pos) + 1
        snippet = self.text[self.pos : self.pos + 30].split("\n")[0]
        return JaxprSyntaxError(f"jaxpr, line {line}: expected {what}, found {snippet!r}")

    def skip_space(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def peek(self, literal: str) -> bool:
        self.skip_space()
        return self.text.startswith(literal, self.pos)

    def peek_word(self, word: str) -> bool:
        self.skip_space()
        match = _NAME.match(self.text, self.pos)
        return bool(match) and match[0] == word

    def expect(self, literal: str) -> None:
        if not self.peek(literal):
            raise self.error(repr(literal))
        self.pos += len(literal)

    def name(self) -> str:
        self.skip_space()
        match = _NAME.match(self.text, self.pos)
        if not match:
            raise self.error("a name")
        self.pos = match.end()
        return match[0]

    def balanced(self, stop: str) -> str:
        """Text up to whitespace or a `stop` character outside brackets (a parameter value)."""
        start, depth = self.pos, 0
        while self.pos < len(self.text):
            char = self.text[self.pos]
            if depth == 0 and (char.isspace() or char in stop):
                break
            if char in _OPEN or (char == "<" and self._opens_angle()):
                depth += 1
            elif char in ")]}>" and depth > 0:
                depth -= 1
            self.pos += 1
        if depth:
            raise self.error("a closing bracket")
        return self.text[start : self.pos]

    def _opens_angle(self) -> bool:
        following = self.text[self.pos + 1 : self.pos + 2]
        return bool(following) and (following.isalpha() or following == "_")

    # -- grammar ------------------------------------------------------------------------------

    def type_(self) -> str:
        """`f32[3]`, `~f32[]`, `key<fry>[]`, `f32<host>[6@data,12@model]`, `f32[2]<host>`,
        `f32[3,3]{V:(data,model)}`."""
        match = _DTYPE.match(self.text, self.pos)
        if not match or not self.text.startswith("[", match.end()):
            raise self.error("a type such as f32[3]")
        self.pos = match.end()
        self.pos = self.text.index("]", self.pos) + 1
        if self.text.startswith("<", self.pos):
            self.pos = self.text.index(">", self.pos) + 1
        if suffix := _AXES_SUFFIX.match(self.text, self.pos):
            self.pos = suffix.end()
        return self.text[match.start() : self.pos]

    def binders(self, stop: str) -> list[Binder]:
        found = []
        while not self.peek(stop):
            name = self.name()
            if not self.text.startswith(":", self.pos):
                raise self.error(f"':' and a type after {name!r}")
            self.pos += 1
            found.append(Binder(name, self.type_()))
        return found

    def is_binder_next(self) -> bool:
        """An output binder (`c:f32[]`) starts the next equation; a literal never does."""
        self.skip_space()
        match = _NAME.match(self.text, self.pos)
        return (
            bool(match)
            and self.text.startswith(":", match.end())
            and not _NUMBER.fullmatch(match[0])
        )

    def operand(self) -> Operand:
        self.skip_space()
        number = _NUMBER.match(self.text, self.pos)
        if number:
            self.pos = number.end()
            if self.text.startswith(":", self.pos):
                self.pos += 1
                self.type_()
            return Operand(self.text[number.start() : self.pos], literal=True)
        return Operand(self.name(), literal=False)

    def operands_until(self, done) -> list[Operand]:
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
            key = self.name()
            self.expect("=")
            params[key] = self.param_value(key)
        self.pos += 1
        return params

    def param_value(self, key: str) -> Param:
        self.skip_space()
        if self.text.startswith("{ lambda", self.pos):
            return self.jaxpr()
        if _TUPLE_OF_JAXPRS.match(self.text, self.pos):
            self.pos += 1
            jaxprs = []
            while not self.peek(")"):
                jaxprs.append(self.jaxpr())
                if self.peek(","):
                    self.pos += 1
            self.pos += 1
            return tuple(jaxprs)
        text = self.balanced("]")
        if not text:
            raise self.error("a parameter value")
        if text in self.def_names and key != "name":
            return Ref(text)
        return " ".join(text.split())

    def eqn(self) -> Eqn:
        outs = []
        if self.is_binder_next():
            outs = self.binders("=")
            self.expect("=")
        primitive = self.name()
        if self.peek("="):
            raise self.error(f"':' and a type after {primitive!r}")
        params = self.params()
        ins = self.operands_until(
            lambda: self.is_binder_next() or self.peek_word("in") or self.peek(";")
        )
        if self.peek(";"):  # equations on one line are separated by semicolons
            self.pos += 1
        return Eqn(outs, primitive, params, ins)

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
        self.expect("{")
        if self.name() != "lambda":
            raise self.error("'lambda'")
        constvars = self.binders(";")
        self.expect(";")
        invars = self.binders(".")
        self.expect(".")
        if self.name() != "let":
            raise self.error("'let'")
        eqns = []
        while not self.peek_word("in"):
            if self.pos >= len(self.text):
                raise self.error("'in'")
            eqns.append(self.eqn())
        self.name()  # in
        outs = self.outputs()
        self.expect("}")
        return Jaxpr(constvars, invars, eqns, outs)

    def program(self) -> Program:
        """`[let NAME = { lambda ... } in]* { lambda ... }`"""
        defs: dict[str, Jaxpr] = {}
        while self.peek_word("let"):
            self.name()
            name = self.name()
            self.expect("=")
            self.def_names.add(name)
            defs[name] = self.jaxpr()
            if self.name() != "in":
                raise self.error("'in' after a named jaxpr")
        return Program(self.jaxpr(), defs)


def parse_jaxpr(text: str) -> Jaxpr:
    """One jaxpr, and nothing else but whitespace around it."""
    program = parse_program(text)
    if program.defs:
        raise JaxprSyntaxError("expected one jaxpr, found named sub-jaxprs before it")
    return program.main


def parse_program(text: str) -> Program:
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
        segments.append(Segment(text[match.start() : reader.pos], program))
        pos = reader.pos
    if pos < len(text):
        segments.append(Segment(text[pos:]))
    return segments


def programs(text: str) -> list[Program]:
    return [s.program for s in split_output(text) if s.program is not None]
