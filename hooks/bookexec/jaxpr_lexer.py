"""A Pygments lexer for jaxprs, so the book's outputs read like the programs they are.

Registered as the `jaxpr` language through the project's entry points. Text that is not a
jaxpr passes through as plain text, so whole block outputs can use it.
"""

from __future__ import annotations

from typing import ClassVar

from pygments.lexer import RegexLexer, bygroups
from pygments.token import Keyword, Name, Number, Operator, Punctuation, Text, Whitespace

_DTYPE = r"(?:bf16|f8_\w+|[fiuc](?:4|8|16|32|64|128)|bool|key<\w+>|float0)"


class JaxprLexer(RegexLexer):
    name = "jaxpr"
    aliases: ClassVar[list[str]] = ["jaxpr"]
    filenames: ClassVar[list[str]] = []

    tokens: ClassVar[dict] = {
        "root": [
            (r"\s+", Whitespace),
            (r"\{ lambda\b", Keyword),
            (r"\b(let|in)\b", Keyword),
            # A type such as f32[5,4], ~f32[], i32[8@x,16@y] or f32[2]<host>
            (_DTYPE + r"\[[^\]\s]*\](?:<\w+>)?", Keyword.Type),
            (r"~(?=" + _DTYPE + r"\[)", Keyword.Type),
            # A binder or operand with its type: 'b:f32[]'
            (r"([a-z_][a-z0-9_]*)(:)", bygroups(Name.Variable, Punctuation)),
            # The primitive of an equation: the word after '= '
            (r"(=)(\s+)([a-z_][a-z0-9_]*)", bygroups(Operator, Whitespace, Name.Function)),
            # A parameter: 'dimension_numbers='
            (r"([a-z_][a-z0-9_]*)(=)", bygroups(Name.Attribute, Operator)),
            (r"-?\d+\.\d*(?:e[+-]?\d+)?|-?\d+(?:e[+-]?\d+)?", Number),
            (r"[{}\[\](),;.]", Punctuation),
            (r"[^\s{}\[\](),;.:=~]+", Text),
            (r".", Text),
        ]
    }
