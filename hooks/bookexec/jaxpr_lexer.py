"""A Pygments lexer for jaxprs, so the book's outputs read like the programs they are.

Registered as the `jaxpr` language through the project's entry points. Text that is not a
jaxpr passes through as plain text, so whole block outputs can use it.

What it marks, with the token the theme colours:
- `{ lambda`, `let`, `in`: Keyword; a top-level `let name = { ... } in` names its jaxpr as
  Name.Function, like a primitive, since equations call it by that name.
- types: `f32[]`, `~f32[4,8]`, `f32[8@x,16@y]`, `float32<host>[8@x,16@y]`, `key<fry>[]`,
  `bool[4]`, `f32[2]<host>`: Keyword.Type.
- binders `a:` and `_:`: Name.Variable; operands: Name.
- the primitive after `=`: Name.Function; its parameters `name=`: Name.Attribute.
- literals `2.0:f32[]`: Number, then the type.
- inside parameters: None/True/False (Keyword.Constant), quoted strings (String), numbers.
"""

from __future__ import annotations

from typing import ClassVar

from pygments.lexer import RegexLexer, bygroups
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


class JaxprLexer(RegexLexer):
    name = "jaxpr"
    aliases: ClassVar[list[str]] = ["jaxpr"]
    filenames: ClassVar[list[str]] = []

    tokens: ClassVar[dict] = {
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
            (_NUMBER, Number),
            (_NAME, Name),
            (r"[{}\[\](),;.:@<>]", Punctuation),
            (r"[=*+\-/|~]", Operator),
            (r".", Text),
        ]
    }
