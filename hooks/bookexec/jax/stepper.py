"""The trace stepper's mapping, taken from real JAX (rendered by
`bookexec._internal.render.stepper_html`).

A snippet records it on hidden lines, the reader's code staying idiomatic::

    from bookexec.jax.stepper import stepper  # hidden
    stepper("steps", relu_affine, 2.0, again=[(3.0,), (jnp.ones(3),)])  # hidden

Each equation's line is the one JAX itself records in the equation's source info (the user
frame `jaxpr.pretty_print(source_info=True)` prints after it), so when JAX changes which line
records what, the recorded mapping changes and the golden reports the block. Nested equations
(a scan's body, a cond's branches) keep their place inside their parent. A `print` that runs
while tracing is kept (not shown in the block's output) with the line it ran at. `again` calls
the jitted function with other arguments and records whether each call traced again.

Runs in the worker, under the snippet's JAX.
"""

from __future__ import annotations

import inspect
import io
import json
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, cast

from bookexec._internal.render.stepper_html import PREFIX
from bookexec.facts import record

__all__ = ["PREFIX", "describe", "stepper", "trace_steps"]

# The source comment JAX prints after an equation: `# file:line:col (function)`, or `# ` alone
# when it kept no user frame for it.
_COMMENT = re.compile(r"^(?P<body>.*?)\s+#(?: (?P<where>.*))?$")
_WHERE = re.compile(r"^(?P<file>.*):(?P<line>\d+):\d+ \([^()]*\)$")


class _Prints(io.TextIOBase):
    """Stands for stdout while the function is traced: each printed line with the line of the
    function that was running when it was written."""

    def __init__(self, filename: str, lines: range) -> None:
        self.filename, self.lines = filename, lines
        self.printed: list[dict[str, Any]] = []
        self._pending = ""
        self._line: int | None = None

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if self._line is None and text:
            self._line = self._running()
        self._pending += text
        while "\n" in self._pending:
            done, self._pending = self._pending.split("\n", 1)
            self.printed.append({"line": self._line, "text": done})
            self._line = None if not self._pending else self._line
        return len(text)

    def close_pending(self) -> None:
        if self._pending:
            self.printed.append({"line": self._line, "text": self._pending})
            self._pending = ""

    def _running(self) -> int | None:
        frame = sys._getframe(1)
        while frame is not None:
            if frame.f_code.co_filename == self.filename and frame.f_lineno in self.lines:
                return frame.f_lineno
            frame = frame.f_back  # type: ignore[assignment]
        return None


@contextmanager
def _printing_to(prints: _Prints) -> Iterator[_Prints]:
    stdout = sys.stdout
    sys.stdout = prints
    try:
        yield prints
    finally:
        sys.stdout = stdout
        prints.close_pending()


def _source(fn: Callable[..., Any]) -> tuple[str, range, list[dict[str, Any]]]:
    """The function's file (as its code names it), its lines, and their text."""
    target = inspect.unwrap(fn)
    try:
        lines, first = inspect.getsourcelines(target)
        filename = target.__code__.co_filename
    except (OSError, TypeError, AttributeError):
        name = getattr(target, "__qualname__", repr(target))
        raise ValueError(
            f"stepper: no source for {name}: give a function defined with `def` in the snippet"
        ) from None
    numbered = [{"number": first + i, "text": text.rstrip("\n")} for i, text in enumerate(lines)]
    return filename, range(first, first + len(lines)), numbered


def _in_order(jaxpr: Any) -> Iterator[Any]:
    """Every equation, nested ones right after their parent, in the order the printer
    writes them (parameters sorted by name, as `pp_eqn` sorts them)."""
    for eqn in jaxpr.eqns:
        yield eqn
        for _, value in sorted(eqn.params.items()):
            for inner in value if isinstance(value, (tuple, list)) else [value]:
                body = getattr(inner, "jaxpr", inner)  # a closed jaxpr, or a jaxpr
                if hasattr(body, "eqns") and hasattr(body, "outvars"):
                    yield from _in_order(body)


def _frames(eqn: Any) -> list[tuple[str, int]]:
    """The user frames JAX recorded for an equation, innermost first: (file, line)."""
    from jax._src import source_info_util

    return [
        (frame.file_name, frame.start_line)
        for frame in source_info_util.user_frames(eqn.source_info.traceback)
    ]


def _program(printed: str, eqns: list[Any], filename: str, lines: range) -> list[dict[str, Any]]:
    """The printed jaxpr, line by line, each with the line of the function that recorded it.

    A line with JAX's source comment starts an equation; the lines that follow it deeper (a
    scan's parameters, its body's own equations) or close it (`] a`) are inside it, so a
    parameter line belongs to its equation and a nested equation sits under its parent. An
    equation's line is the function's own frame in the traceback JAX recorded for it: the
    innermost frame (the one JAX prints) may be a helper the function called."""
    out: list[dict[str, Any]] = []
    open_eqns: list[tuple[int, int | None]] = []  # (indent, line) of the equations still open
    todo = iter(eqns)
    for raw in printed.splitlines():
        indent = len(raw) - len(raw.lstrip())
        found = _COMMENT.match(raw)
        body = (found["body"] if found else raw).rstrip()
        closing = body.lstrip().startswith(("]", ")"))
        while open_eqns and (
            open_eqns[-1][0] > indent or (open_eqns[-1][0] == indent and not closing)
        ):
            open_eqns.pop()
        if found:
            frames = _frames(next(todo))
            where = _WHERE.match(found["where"] or "")
            printed_frame = (where["file"], int(where["line"])) if where else None
            if printed_frame != (frames[0] if frames else None):
                # the printer and the walk disagree on the order: say so, never mislabel
                raise ValueError(f"stepper: equation {body.strip()!r} is out of step with JAX's")
            line = next((n for f, n in frames if f == filename and n in lines), None)
            out.append({"text": body, "line": line, "eqn": True, "depth": len(open_eqns)})
            open_eqns.append((indent, line))
            continue
        line = open_eqns[-1][1] if open_eqns else None
        depth = max(len(open_eqns) - 1, 0)
        out.append({"text": body, "line": line, "eqn": False, "depth": depth})
        if closing and open_eqns:
            open_eqns.pop()
    return out


def _shapes(args: Sequence[Any], static: tuple[int, ...] = ()) -> str:
    import jax

    return ", ".join(
        repr(a) if i in static else jax.typeof(a).str_short(short_dtypes=True)
        for i, a in enumerate(args)
    )


def trace_steps(
    fn: Callable[..., Any],
    *args: Any,
    again: Sequence[Sequence[Any]] = (),
    title: str | None = None,
    static_argnums: tuple[int, ...] = (),
) -> dict[str, Any]:
    """The mapping from `fn`'s lines to the jaxpr it traces to with `args`.

    A jitted function is traced as its Python function: the program its first call records,
    whatever its cache already holds."""
    import jax

    if hasattr(fn, "lower") and hasattr(fn, "__wrapped__"):
        fn = fn.__wrapped__
    filename, lines, source = _source(fn)
    target = fn

    def fresh(*call_args: Any) -> Any:
        return target(*call_args)

    # A function of its own for each trace: JAX caches traces by function, and a cached trace
    # runs no Python, so its prints would not fire.
    with _printing_to(_Prints(filename, lines)) as prints:
        traced = jax.make_jaxpr(fresh, static_argnums=static_argnums)(*args)
    printed = traced.pretty_print(source_info=True, name_stack=False)
    if len(printed.splitlines()) == 1:
        # short enough for one line: narrower than that line, so only the outer group breaks
        # and each equation gets a line of its own
        found = _COMMENT.match(printed)
        width = len((found["body"] if found else printed).rstrip()) - 1
        printed = traced.pretty_print(source_info=True, name_stack=False, width=width)
    program = _program(printed, list(_in_order(traced)), filename, lines)
    calls: list[dict[str, Any]] = []
    if again:
        runs = [0]

        def counted(*call_args: Any) -> Any:
            runs[0] += 1
            return fn(*call_args)

        jitted = jax.jit(counted, static_argnums=static_argnums)
        ready: Callable[[Any], Any] = cast(Any, jax).block_until_ready  # untyped in JAX
        for call_args in [tuple(args), *map(tuple, again)]:
            before = runs[0]
            with _printing_to(_Prints(filename, lines)) as said:
                ready(jitted(*call_args))
            calls.append(
                {
                    "args": _shapes(call_args, static_argnums),
                    "traced": runs[0] > before,
                    "prints": [p["text"] for p in said.printed],
                }
            )
    return {
        "title": title or getattr(inspect.unwrap(fn), "__name__", "function"),
        "args": _shapes(args, static_argnums),
        "source": source,
        "jaxpr": program,
        "prints": prints.printed,
        "calls": calls,
    }


def summary(steps: dict[str, Any]) -> str:
    """Which line recorded which primitives, in one short line (`5: mul add | 7: max`), so a
    drift of the mapping reads at a glance in the golden's diff; a nested equation is marked
    with `>` per level, a print with `print`, equations JAX tied to no line of the function
    under `none`."""
    said: dict[int | None, list[str]] = {}
    for line in steps["jaxpr"]:
        if line["eqn"]:
            primitive = line["text"].partition(" = ")[2].split("[")[0].split(" ")[0]
            said.setdefault(line["line"], []).append(">" * line["depth"] + primitive)
    for printed in steps["prints"]:
        said.setdefault(printed["line"], []).append("print")
    order = [s["number"] for s in steps["source"]] + [None]
    return " | ".join(
        f"{'none' if n is None else n}: {' '.join(said[n])}" for n in order if n in said
    )


def describe(
    fn: Callable[..., Any],
    *args: Any,
    again: Sequence[Sequence[Any]] = (),
    title: str | None = None,
    static_argnums: tuple[int, ...] = (),
) -> str:
    """The mapping as the one line a golden records."""
    steps = trace_steps(fn, *args, again=again, title=title, static_argnums=static_argnums)
    return PREFIX + json.dumps(steps, sort_keys=True, ensure_ascii=False)


def stepper(
    name: str,
    fn: Callable[..., Any],
    *args: Any,
    again: Sequence[Sequence[Any]] = (),
    title: str | None = None,
    static_argnums: tuple[int, ...] = (),
) -> str:
    """Record the stepper of `fn` traced with `args` as the exact fact `name` of this block;
    the prose shows it with ``{{stepper:block-id.name}}`` on a line of its own."""
    steps = trace_steps(fn, *args, again=again, title=title, static_argnums=static_argnums)
    record(f"{name}_lines", summary(steps))  # the short line a reviewer reads first
    described = PREFIX + json.dumps(steps, sort_keys=True, ensure_ascii=False)
    record(name, described)
    return described
