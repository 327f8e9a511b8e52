"""A Pygments lexer for jaxprs, so the book's outputs read like the programs they are.

Registered as the `jaxpr` language through the project's entry points. A block output that
holds a jaxpr is lexed with it whole, so the text around its jaxprs (what the block printed
besides: `handed in: ...`, `constant = 0x3f...`) stays plain text: only the jaxprs are coloured.
A text with no jaxpr at all (a hand-written `jaxpr` fence of one equation) is coloured whole.

Each jaxpr in the text is read by the book's parser (`bookexec._internal.jax.parse`), and coloured
from where the parser found each part: a variable called `ge` is a variable and the primitive `ge` a
primitive, a variable called `in` is not the keyword, `scatter-add` is one primitive. What lies
between those parts (punctuation, parameter values), a fragment with no jaxpr, or a jaxpr the
parser cannot read, is coloured by the regular expressions below.

What it marks, with the token the theme colours:
- `{ lambda`, `let`, `in`: Keyword; a top-level `let name = { ... } in` names its jaxpr as
  Name.Function, like a primitive, since equations call it by that name.
- types: `f32[]`, `~f32[4,8]`, `f32[8@x,16@y]`, `float32<host>[8@x,16@y]`, `key<fry>[]`,
  `bool[4]`, `f32[2]<host>`, `f32[2,2]{V:(x,y)}`: Keyword.Type.
- binders `a:` and `_:`: Name.Variable; operands: Name.
- the primitive after `=`: Name.Function; its parameters `name=`: Name.Attribute.
- literals `2.0:f32[]`, `1j:c64[]`, `(2-0.5j):c64[]`: Number, then the type.
- inside parameters: None/True/False (Keyword.Constant), quoted strings (String), numbers.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, ClassVar

from pygments.lexer import Lexer, RegexLexer, bygroups
from pygments.token import (
    Keyword,
    Name,
    Number,
    Operator,
    Punctuation,
    String,
    Text,
    Whitespace,
)

from bookexec._internal.jax.parse import split_output

if TYPE_CHECKING:
    from pygments.token import _TokenType  # the class of Keyword, Name...: public in all but name

# What a lexer yields: where a token starts in the text, its kind, and its text.
_Token = tuple[int, "_TokenType", str]

# Short dtype names as jaxprs print them, and the long names some reprs use.
_DTYPE = (
    r"(?:bf16|f8_\w+|[fiuc](?:2|4|8|16|32|64|128)|bool|float0|key<\w+>"
    r"|(?:b?float|u?int|complex)\d+(?:_\w+)?)"
)
# A memory space written before the shape (float32<host>[...]) or after it (f32[2]<host>).
_SPACE = r"(?:<\w+>)?"
_TYPE = r"~?" + _DTYPE + _SPACE + r"\[[^\]\s]*\]" + _SPACE
_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_NUMBER = r"-?(?:\d+\.\d*|\.\d+|\d+)(?:e[+-]?\d+)?\b|-?(?:inf|nan)\b"


class RegexJaxprLexer(RegexLexer):
    """Jaxpr colours from regular expressions alone: for text the parser does not read."""

    name = "jaxpr-regex"
    aliases: ClassVar[list[str]] = []
    filenames: ClassVar[list[str]] = []

    tokens: ClassVar[dict[str, list[tuple[str, object]]]] = {
        "root": [
            (r"\s+", Whitespace),
            (r"\{ lambda\b", Keyword),
            # A top-level definition: 'let wave = { lambda ... } in'
            (
                r"(let)(\s+)(" + _NAME + r")(\s*)(=)(?=\s*\{ lambda)",
                bygroups(Keyword, Whitespace, Name.Function, Whitespace, Operator),
            ),
            (r"\b(let|in)\b", Keyword),
            # A literal with its type: '2.0:f32[]'
            (r"(" + _NUMBER + r")(:)(?=~?" + _DTYPE + ")", bygroups(Number, Punctuation)),
            (_TYPE, Keyword.Type),
            # A binder with its type: 'b:f32[]', '_:f32[]'
            (r"(" + _NAME + r")(:)(?=~?" + _DTYPE + ")", bygroups(Name.Variable, Punctuation)),
            # The primitive of an equation: the word after '= '
            (r"(=)(\s+)(" + _NAME + r")", bygroups(Operator, Whitespace, Name.Function)),
            # A parameter: 'dimension_numbers='
            (r"(" + _NAME + r")(=)", bygroups(Name.Attribute, Operator)),
            (r"\b(None|True|False)\b", Keyword.Constant),
            (r"\b(?:" + _DTYPE + r")\b", Keyword.Type),
            (r"'[^'\n]*'|\"[^\"\n]*\"", String),
            (r"0[xX][0-9a-fA-FX]+\b", Number.Hex),  # an address: 0x7f..., or 0xXXXX normalised
            (_NUMBER, Number),
            (_NAME, Name),
            (r"\w+", Name),
            (r"[{}\[\](),;.:@<>!?#$%&^`'\"\\]", Punctuation),
            (r"[=*+\-/|~]", Operator),
            (r".", Text),
        ]
    }


# How each part the parser found is coloured; `value` (a parameter's printed value) is lexed
# with the regular expressions, which colour its strings, numbers and constants.
_SPAN_TOKENS = {
    "keyword": Keyword,
    "binder": Name.Variable,
    "var": Name,
    "type": Keyword.Type,
    "literal": Number,
    "primitive": Name.Function,
    "key": Name.Attribute,
    "def": Name.Function,
    "ref": Name,
}


class JaxprLexer(Lexer):
    """Pygments' `jaxpr` lexer: tokens from the parser, the regex lexer where it cannot read."""

    name = "jaxpr"
    aliases: ClassVar[list[str]] = ["jaxpr"]
    filenames: ClassVar[list[str]] = []

    def get_tokens_unprocessed(self, text: str) -> Iterator[_Token]:
        """Tokens with offsets: the parser's spans inside jaxprs, text around them."""
        regex = RegexJaxprLexer()
        try:
            segments = split_output(text)
        except Exception:  # a jaxpr the parser cannot read is still shown, coloured by regex
            yield from _after_text(regex, text)
            return
        whole = not any(segment.program for segment in segments)  # a fragment: all jaxpr
        offset = 0
        for segment in segments:
            if segment.program is None and not whole:  # printed around the jaxprs: plain
                yield offset, Text, segment.text
                offset += len(segment.text)
                continue
            pos = 0
            for span in segment.spans:
                if span.start > pos:
                    yield from _shifted(regex, segment.text[pos : span.start], offset + pos)
                piece = segment.text[span.start : span.end]
                if span.kind in _SPAN_TOKENS:
                    yield offset + span.start, _SPAN_TOKENS[span.kind], piece
                else:
                    yield from _shifted(regex, piece, offset + span.start)
                pos = span.end
            yield from _shifted(regex, segment.text[pos:], offset + pos)
            offset += len(segment.text)


def _after_text(lexer: RegexLexer, text: str) -> Iterator[_Token]:
    """Text the parser cannot read: plain up to the line of its first jaxpr, regex after."""
    first = text.find("{ lambda")
    start = text.rfind("\n", 0, first) + 1 if first > 0 else 0
    if start:
        yield 0, Text, text[:start]
    yield from _shifted(lexer, text[start:], start)


def _shifted(lexer: RegexLexer, text: str, offset: int) -> Iterator[_Token]:
    for start, kind, value in lexer.get_tokens_unprocessed(text):
        yield offset + start, kind, value
