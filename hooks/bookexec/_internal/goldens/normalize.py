"""Normalise a block's output: remove what varies between machines and runs, and nothing else.

The classes are the goldens guide's (docs/guide/goldens.md), each matched only in its own
syntax: absolute paths of this machine (ending at a path's boundary), a default repr's memory
address, an object id where JAX prints one, markdown-exec's block names, the user and host
names standing alone.

Each normaliser is a plain function with its own tests. None of them may touch jaxpr content:
variable names, types, primitives, parameters and literals pass through unchanged.
"""

from __future__ import annotations

import os
import re
import sys
import sysconfig
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bookexec._internal.privacy import machine_names

# CPython's default repr, "<function f at 0x7f1c2b3a4d50>", "<foo.Bar object at 0x...>": the
# address inside the angle brackets, and no other `at 0x...`.
_ADDRESS = re.compile(r"(<[^<>\n]* at )0x[0-9a-fA-F]+>")
# An object's id where JAX prints one, and nowhere else: a tracer's "... Tracer with object id
# 140234... was created", a variable's repr "Var(id=140234...)", and a cache miss's
# explanation "f id=140234... defined at ...".
_OBJECT_ID = re.compile(
    r"(?<=Tracer with object id )\d+(?= was created)|(?<=\bVar\(id=)\d+(?=\))"
    r"|(?<=\w id=)\d+(?= defined at )"
)
# markdown-exec's own names for in-process blocks, should one ever reach an output.
_BLOCK_NAME = re.compile(r"<code block: [^>]*>")


def addresses(text: str) -> str:
    """Replace memory addresses and object ids with stable placeholders."""
    text = _ADDRESS.sub(lambda m: f"{m[1]}0x<address>>", text)
    return _OBJECT_ID.sub("<id>", text)


def block_names(text: str) -> str:
    """Replace markdown-exec's internal block names, like '<code block: n3>'."""
    return _BLOCK_NAME.sub("<code block>", text)


@dataclass(frozen=True)
class PathRule:
    """A machine path prefix and the placeholder that replaces it in outputs."""

    prefix: str
    placeholder: str


def path_rules(
    root: Path,
    site_packages: Iterable[str] = (),
    stdlib: Iterable[str] = (),
    temp: Iterable[str] = (),
    homes: Iterable[str] = (),
    pythons: Iterable[str] = (),
    import_paths: Iterable[str] = (),
    names: dict[str, str] | None = None,
) -> list[PathRule]:
    """Rules for the absolute paths of this machine, most specific first."""
    rules: list[PathRule] = []
    for group, placeholder in (
        (site_packages, "<site-packages>"),
        (stdlib, "<stdlib>"),
        ([str(root)], "<root>"),
        (temp, "<tmp>"),
        (homes, "<home>"),
        (pythons, "<python>"),
        (import_paths, "<sys.path>"),  # the rest of sys.path, e.g. an editable install
    ):
        for prefix in group:
            prefix = str(prefix).rstrip("/")
            if prefix and prefix != "/":
                rules.append(PathRule(prefix, placeholder))
    # A user or host name, standing alone as a word: the same boundaries as a path's.
    rules += [PathRule(name, placeholder) for name, placeholder in (names or {}).items()]
    # Longest prefix first, so a venv inside the checkout becomes <site-packages>, not <root>.
    return sorted(rules, key=lambda rule: len(rule.prefix), reverse=True)


def interpreter_facts() -> dict[str, Any]:
    """What the path rules need to know of the interpreter running this code: its install
    paths, its prefixes and its import path. `jaxbook.jax_changes` asks another interpreter
    for the same, by running this function there."""
    return {
        "paths": sysconfig.get_paths(),
        "prefixes": [sys.prefix, sys.exec_prefix, sys.base_prefix],
        "sys_path": list(sys.path),
    }


def machine_path_rules(
    root: Path, environ: Mapping[str, str], facts: Mapping[str, Any] | None = None
) -> list[PathRule]:
    """The rules for the checkout and an interpreter running its blocks: this one, or the one
    whose `interpreter_facts` are `facts`; `environ` (the build's) names its user."""
    facts = facts or interpreter_facts()
    paths = facts["paths"]
    # The machine's temp folder, which varies; `/tmp` and `/var/tmp` are two folders of any
    # machine, and a block that prints one for the other changed.
    temp = {tempfile.gettempdir()}
    homes = {os.path.expanduser("~")}

    def realpaths(items: Iterable[str]) -> set[str]:
        return {str(p) for item in items for p in (item, os.path.realpath(item))}

    known = [root, *paths.values(), *temp, *homes]
    return path_rules(
        root=root.resolve(),
        site_packages=realpaths({paths["purelib"], paths["platlib"]}),
        stdlib=realpaths({paths["stdlib"], paths["platstdlib"]}),
        temp=realpaths(temp),
        homes=realpaths(homes),
        pythons=realpaths(facts["prefixes"]),
        import_paths=realpaths(_other_import_paths(known, facts["prefixes"], facts["sys_path"])),
        names=machine_names(environ),
    )


def _other_import_paths(
    known: Iterable[str | Path], prefixes: Iterable[str], sys_path: Iterable[str]
) -> set[str]:
    """Folders on sys.path under none of the other rules, such as an editable install's."""
    under = tuple(str(p).rstrip("/") + "/" for p in [*known, *prefixes])
    return {
        p
        for p in sys_path
        if os.path.isabs(p) and os.path.isdir(p) and not (p + "/").startswith(under)
    }


def paths(text: str, rules: list[PathRule]) -> str:
    """Replace absolute machine paths with placeholders; a path must start at a word boundary."""
    for rule in rules:
        pattern = re.compile(r"(?<![\w./-])" + re.escape(rule.prefix) + r"(?=[/\s\"'`:;),\]>]|$)")
        text = pattern.sub(rule.placeholder, text)
    return text


def snippet_names(text: str, snippets: Iterable[str]) -> str:
    """Name each of the page's snippet files as a reader's copy is named: the file alone
    (`snippets/tracers/if_on_a_value.py:5` becomes `if_on_a_value.py:5`, a `<root>/` before it
    included). A reader who saves the shown code as that file and runs it sees the same frames
    and line numbers (the worker numbers the shown lines, `discover.hidden.numbering`)."""
    for snippet in sorted(set(snippets), key=len, reverse=True):
        if "/" not in snippet:
            continue
        pattern = re.compile(r"(?<![\w./-])(?:<root>/)?" + re.escape(snippet) + r"(?![\w/-])")
        text = pattern.sub(snippet.rsplit("/", 1)[1], text)
    return text


def normalize(text: str, rules: list[PathRule]) -> str:
    """All normalisers, in order, and nothing else: each line end (a carriage return, a form
    feed, a missing final newline), trailing space and blank line stays as printed, and the
    golden stores it (`goldens.store.encode_output`)."""
    return block_names(addresses(paths(text, rules)))


def for_page(text: str, rules: list[PathRule]) -> str:
    """What the page shows: the paths and block names of `normalize`, but the addresses and
    object ids as the code printed them (a reader's run prints numbers there, never a
    placeholder); only the golden holds `addresses`' placeholders."""
    return block_names(paths(text, rules))
