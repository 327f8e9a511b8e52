"""The trace stepper on the page: a function's lines beside the jaxpr they recorded.

A snippet records the mapping with a hidden call of its runtime's recorder (for this book,
`bookexec.jax.stepper.stepper`), as one exact fact whose value starts with `stepper `: the
golden compares it on every build, so a change of which line records what is drift naming the
block. The prose places it with ``{{stepper:block-id.name}}`` on a line of its own. Nothing here
knows JAX: a mapping is lines of source, lines of a traced program each labelled with the source
line that recorded it (or none), the prints with their line, and the later calls.

The HTML is complete without JavaScript: every line of the program carries its source line's
label, every source line says what it recorded. The plugin's own script (`assets/stepper.js`)
adds the step buttons, the arrow keys and the live description.
"""

from __future__ import annotations

import html
import json
import re
from importlib import resources
from typing import Any

from bookexec._internal.goldens.measured import Fact

PREFIX = "stepper "
REFERENCE = re.compile(r"^\{\{\s*stepper:(?P<ref>[^{}\s]+)\s*\}\}\s*$")
REFERENCE_ANYWHERE = re.compile(r"\{\{\s*stepper:(?P<ref>[^{}\s]+)\s*\}\}")
# The plugin's own assets, written into the site under this folder and linked from every page.
ASSETS = ("stepper.css", "stepper.js")
ASSET_DIR = "assets/executed-book"


def parse_spec(fact: Fact) -> dict[str, Any] | None:
    """The mapping a fact holds, or None when the fact is not a stepper."""
    if fact.kind != "exact" or not str(fact.value).startswith(PREFIX):
        return None
    spec: dict[str, Any] = json.loads(str(fact.value)[len(PREFIX) :])
    return spec


def asset(name: str) -> bytes:
    """One of the stepper's assets, as shipped in the package."""
    return (
        resources.files("bookexec._internal.render").joinpath("assets").joinpath(name).read_bytes()
    )


def _recorded(spec: dict[str, Any], number: int) -> tuple[int, int]:
    """The equations a line recorded: at the program's top level, and nested in another's body."""
    own = [line.get("depth", 0) for line in spec["jaxpr"] if line["eqn"] and line["line"] == number]
    top = own.count(0)
    return top, len(own) - top


def _equations(count: int) -> str:
    return f"{count} equation{'s' if count != 1 else ''}"


def _what(spec: dict[str, Any], number: int) -> str:
    """What a source line did while tracing, in words: shown without JavaScript too.

    Top-level and nested equations are counted apart, so that a line holding a `scan` reads as
    the one equation a count of the program's equations finds, with its body's beside it."""
    top, nested = _recorded(spec, number)
    if not nested:
        recorded = f"records {_equations(top)}" if top else "records nothing"
    elif not top:
        recorded = f"records {_equations(nested)} nested in another equation's body"
    else:
        recorded = f"records {_equations(top)}, with {nested} more nested inside"
    parts = [recorded]
    printed = [p["text"] for p in spec["prints"] if p["line"] == number]
    if printed:
        parts.append("prints " + "; ".join(printed))
    return ", ".join(parts)


def stepper_html(name: str, spec: dict[str, Any], caption: str) -> str:
    """The stepper as one raw HTML line: the function, the program, the prints and the calls."""
    e = html.escape
    ident = f"stepper-{name}"
    source = []
    for line in spec["source"]:
        n = line["number"]
        source.append(
            f'<li class="eb-src" data-line="{n}" id="{ident}-src-{n}">'
            f'<span class="eb-code"><span class="eb-no">{n}</span>'
            f"<code>{e(line['text']) or ' '}</code></span>"
            f'<span class="eb-what">{e(_what(spec, n))}</span></li>'
        )
    program = []
    for line in spec["jaxpr"]:
        n = line["line"]
        label = f"line {n}" if n is not None else ("no line" if line["eqn"] else "")
        kind = " eb-eqn" if line["eqn"] else ""
        data = f' data-line="{n}"' if n is not None else ""
        program.append(
            f'<li class="eb-jx{kind}"{data}><code>{e(line["text"]) or " "}</code>'
            f'<span class="eb-label">{e(label)}</span></li>'
        )
    prints = "".join(
        f'<li data-line="{p["line"] if p["line"] is not None else ""}">'
        f"<samp>{e(p['text'])}</samp>"
        f'<span class="eb-label">{e("line " + str(p["line"]) if p["line"] else "outside")}</span>'
        "</li>"
        for p in spec["prints"]
    )
    calls = ""
    for i, call in enumerate(spec["calls"], start=1):
        if call["traced"]:
            said = "traced: the function's Python ran"
            if call["prints"]:
                said += ", printing " + "; ".join(f"<samp>{e(t)}</samp>" for t in call["prints"])
        else:
            said = "nothing traced, nothing printed: the compiled program ran"
        kind = "eb-traced" if call["traced"] else "eb-cached"
        calls += f'<li class="{kind}">call {i} with <code>{e(call["args"])}</code>: {said}</li>'
    title = e(spec["title"])
    parts = [
        f'<figure class="executed-book-stepper" id="{ident}" data-stepper="{e(name)}">',
        '<div class="eb-panes"><div class="eb-pane">',
        f'<p class="eb-head">Python: <code>{title}</code></p>',
        f'<ol class="eb-source">{"".join(source)}</ol></div>',
        '<div class="eb-pane"><p class="eb-head">jaxpr, each equation labelled with the line '
        f'that recorded it</p><ol class="eb-jaxpr">{"".join(program)}</ol></div></div>',
    ]
    if prints:
        parts.append(
            f'<p class="eb-head">Printed while tracing</p><ol class="eb-prints">{prints}</ol>'
        )
    if calls:
        parts.append(
            f'<p class="eb-head">Calls of the jitted function</p><ol class="eb-calls">{calls}</ol>'
        )
    parts.append(f"<figcaption>{e(caption)}</figcaption></figure>")
    return "".join(parts)
