"""Say what kind of change a drifted jaxpr is, so a reviewer knows where to look.

A new JAX often re-letters variables (`c` becomes `d`) without changing the program. That is
told apart from a changed primitive, a changed type, and a change in data flow or parameters.
The diff is still shown in full; this only adds one line in words.
"""

from __future__ import annotations

import re
from collections import Counter

_BINDER = re.compile(r"\b([a-z]+|_):")
_WORD = re.compile(r"\b[a-z]+\b")
_PRIMITIVE = re.compile(r"=\s+([a-z_][a-z0-9_]*)")
_TYPE = re.compile(r"~?(?:bf16|[fiuc]\d+|bool|key<\w+>)\[[^\]\s]*\](?:<\w+>)?")


def has_jaxpr(text: str) -> bool:
    return "{ lambda " in text


def canonical(text: str) -> str:
    """Rename every jaxpr variable to v0, v1, ... in order of first appearance."""
    binders = set(_BINDER.findall(text)) - {"_"}
    names: dict[str, str] = {}

    def rename(match: re.Match) -> str:
        word = match[0]
        if word not in binders:
            return word
        return names.setdefault(word, f"v{len(names)}")

    return _WORD.sub(rename, text)


def _changes(kind: str, old: Counter, new: Counter) -> str | None:
    added, removed = new - old, old - new
    if not added and not removed:
        return None
    parts = [f"+{name}" for name in sorted(added)] + [f"-{name}" for name in sorted(removed)]
    return f"{kind} {' '.join(parts)}"


def classify(old: str, new: str) -> str | None:
    """One line describing how two outputs with jaxprs differ, or None without jaxprs."""
    if not (has_jaxpr(old) and has_jaxpr(new)) or old == new:
        return None
    if canonical(old) == canonical(new):
        return "jaxpr: only variable names changed; the program is the same"
    found = [
        _changes("primitives", Counter(_PRIMITIVE.findall(old)), Counter(_PRIMITIVE.findall(new))),
        _changes("types", Counter(_TYPE.findall(old)), Counter(_TYPE.findall(new))),
    ]
    changes = [change for change in found if change]
    if changes:
        return "jaxpr: " + "; ".join(changes)
    return "jaxpr: same primitives and types; data flow, parameters or other text changed"
