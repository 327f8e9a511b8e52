"""What a snippet records for the book: counts, timings, ratios and the claims the prose makes.

A snippet imports this to put a number where the build can check it::

    from bookexec.facts import claim, record, timing, timings

    t_first = timing("first_call", call_once)  # fastest run, warm-up excluded
    t = timings({"loop": compile_unrolled, "scan": compile_scanned})  # in turns: for a claim
    record("speedup", t["loop"] / t["scan"], kind="ratio")
    claim("speedup", ">=", 20)
    record("equations", len(jaxpr.eqns))  # a count: compared exactly

Printing a timing or ratio prints its digits marked, such as ``⟦speedup=23.4⟧``: the page
shows the digits exactly as the code printed them (``23.4``) and the golden keeps the
placeholder ``⟦speedup⟧``. Counts print as themselves. The prose quotes any
recorded value with ``{{fact:block-id.name}}``.

This module runs inside the worker; it must stay light, and it imports JAX only if the snippet
already has. Its `__all__` is public API, held to the same snapshot as `bookexec.__all__`.
"""

from __future__ import annotations

import gc
import math
import sys
import time
from collections.abc import Callable
from types import FrameType
from typing import Any, Literal, overload

__all__ = ["claim", "figure", "record", "timing", "timings"]

from bookexec._internal.escapes import UNSAFE

KINDS = ("exact", "timing", "ratio")
OPS = (">=", ">", "<=", "<")
# Said when markdown-exec runs a snippet in the builder's own process (see _refuse_in_builder).
IN_BUILDER = (
    "bookexec.facts: this block is being run by markdown-exec inside the builder's process, "
    "where no golden checks what it records. Build the book with `./book build`, or "
    "`mkdocs build` with its mkdocs.yml and hooks."
)

# A recorded fact or claim, as the worker hands it to the build (`take`): plain fields, which
# `bookexec._internal.goldens.measured.from_worker` reads into a Fact or a Claim.
Record = dict[str, object]

_MOST = 10**100  # an exact count's bound: a golden's line, and a float, can hold it
_facts: list[Record] = []
_claims: list[Record] = []


class Measured(float):
    """A float that prints as itself, its digits marked: ``f"{t * 1e3:.2f} ms"`` prints
    ``⟦name=1.19⟧ ms``. The page shows exactly the digits the code printed (``1.19 ms``) and the
    golden keeps ``⟦name⟧ ms``, so noisy digits never reach a golden. Scaling by a plain number
    (a change of unit) keeps the mark; so does a ratio of two measured values."""

    name: str

    def __new__(cls, value: float, name: str) -> Measured:
        self = super().__new__(cls, value)
        self.name = name
        return self

    def _mark(self, text: str) -> str:
        return f"⟦{self.name}={text}⟧"

    def __str__(self) -> str:
        return self._mark(float.__repr__(self))

    __repr__ = __str__

    def __format__(self, spec: str) -> str:
        # float's empty format is str(), which is this class's own: the digits come from repr.
        return self._mark(float.__format__(self, spec) if spec else float.__repr__(self))

    def _same(self, value: float) -> Measured:
        return Measured(value, self.name)

    def __mul__(self, other: Any) -> Any:
        return self._same(float(self) * other) if _number(other) else NotImplemented

    def __rmul__(self, other: Any) -> Any:
        return self._same(other * float(self)) if _number(other) else NotImplemented

    def __truediv__(self, other: Any) -> Any:
        return self._same(float(self) / other) if _number(other) else NotImplemented

    def __rtruediv__(self, other: Any) -> Any:
        return self._same(other / float(self)) if _number(other) else NotImplemented


def _number(value: Any) -> bool:
    """A plain int or float (a Measured one included), the operand a unit change takes."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _refuse_in_builder() -> None:
    """Stop a builder that runs the snippet in-process through markdown-exec's own formatter.

    The book's worker never imports markdown-exec, and a reader's Jupyter kernel does not run
    cells through it, so a markdown-exec frame on the stack means another builder (Zensical,
    MkDocs without the book's hook). SystemExit, because markdown-exec shows an Exception in
    the page and carries on.
    """
    frame: FrameType | None = sys._getframe(1)
    while frame is not None:
        if str(frame.f_globals.get("__name__", "")).startswith("markdown_exec"):
            raise SystemExit(IN_BUILDER)
        frame = frame.f_back


@overload
def record(
    name: str, value: Any, kind: Literal["timing", "ratio"], band: float | None = None
) -> Measured:
    """A timing or a ratio comes back as a `Measured`, which prints its digits marked."""


@overload
def record(
    name: str, value: Any, kind: str = "exact", band: float | None = None
) -> int | str | Measured:
    """An exact value comes back as it was recorded (a 0-d array as its item)."""


def record(
    name: str, value: Any, kind: str = "exact", band: float | None = None
) -> int | str | Measured:
    """Record a value under `name`. Exact values compare exactly; timings and ratios by band."""
    _refuse_in_builder()
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, not {kind!r}")
    if any(fact["name"] == name for fact in _facts):
        raise ValueError(f"fact {name!r} is already recorded in this block")
    if not name.replace("_", "").isalnum():
        raise ValueError(f"fact name {name!r} must be letters, digits and '_'")
    if kind == "exact":
        exact = _exact(name, value)
        _facts.append({"name": name, "kind": kind, "value": exact, "band": None})
        return exact
    number, factor = _measured(name, kind, value, band)
    _facts.append({"name": name, "kind": kind, "value": number, "band": factor})
    return Measured(number, name)


def _exact(name: str, value: Any) -> int | str:
    """An exact value as a golden holds it: an int, or one line of plain text."""
    if getattr(value, "shape", None) == () and hasattr(value, "item"):
        value = value.item()  # a 0-d array, e.g. from jnp.sum
    if not isinstance(value, (int, str)) or isinstance(value, float):
        raise TypeError(
            f"fact {name!r}: an exact fact is an int or a str; for a float use kind='ratio'"
        )
    if isinstance(value, str) and not _plain_line(value):
        raise ValueError(f"fact {name!r}: an exact value must be one line of plain text")
    if isinstance(value, int) and not -_MOST < value < _MOST:
        raise ValueError(f"fact {name!r}: an exact count has at most 100 digits")
    return value


def _measured(name: str, kind: str, value: Any, band: float | None) -> tuple[float, float | None]:
    """A timing's or a ratio's value, a positive number, and its band (a factor above 1)."""
    number = float(value)
    if not math.isfinite(number) or number <= 0:
        raise ValueError(f"fact {name!r}: a {kind} must be a positive number, not {value!r}")
    factor = None if band is None else _finite(band)
    if band is not None and (factor is None or factor <= 1):
        raise ValueError(f"fact {name!r}: a band is a finite factor above 1, not {band!r}")
    return number, factor


def timing(
    name: str,
    fn: Callable[[], Any],
    *,
    repeat: int = 5,
    warmup: int = 1,
    band: float | None = None,
) -> Measured:
    """The fastest of `repeat` runs of `fn()`, in seconds, after `warmup` runs not counted.

    The fastest run, not the median: on a busy machine other processes only ever add time,
    so the least disturbed run is the best estimate of the cost itself. The clock stops only
    after `jax.block_until_ready` on the result, so asynchronous dispatch cannot make a
    computation look faster than it is.
    """
    return timings({name: fn}, repeat=repeat, warmup=warmup, band=band)[name]


def timings(
    fns: dict[str, Callable[[], Any]],
    *,
    repeat: int = 5,
    warmup: int = 1,
    band: float | None = None,
) -> dict[str, Measured]:
    """The fastest of `repeat` runs of each function, the runs taken in turns.

    For a claim that compares them: a busy moment on a shared machine then falls on every
    function alike, where timing one after the other can slow only the second. Each round
    starts with the next function, so none always runs first.
    """
    _refuse_in_builder()
    names = list(fns)
    for name in names:
        for _ in range(warmup):
            _ready(fns[name]())
    samples: dict[str, list[float]] = {name: [] for name in names}
    for turn in range(repeat):
        for name in names[turn % len(names) :] + names[: turn % len(names)]:
            samples[name].append(_timed(fns[name]))
    return {name: record(name, min(samples[name]), kind="timing", band=band) for name in names}


def claim(left: str, op: str, right: str | float, says: str = "") -> None:
    """A claim the prose makes: `left op right`; each side is a fact of this block or a number.

    `says` is the claim in the prose's words; the golden records it beside the check. A claim
    that stops holding is drift, whatever the band says.
    """
    _refuse_in_builder()
    if op not in OPS:
        raise ValueError(f"claim operator must be one of {OPS}, not {op!r}")
    if not _plain_line(says):
        raise ValueError("a claim's words must be one line of plain text")
    if not isinstance(right, str):
        number = _finite(right)
        if number is None:
            raise ValueError(f"a claim's right side is a fact's name or a number, not {right!r}")
        right = number
    _claims.append({"left": left, "op": op, "right": right, "says": says})


def _finite(value: Any) -> float | None:
    """`value` as a float, or None when no finite float holds it (`10**400`, NaN, a name)."""
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        return None
    return number if math.isfinite(number) else None


def _plain_line(text: str) -> bool:
    """A golden records it as a line of its own: no line break (which could forge another
    line of the section) and no character git or a terminal would not read as text."""
    return "\n" not in text and UNSAFE.search(text) is None


def _timed(fn: Callable[[], Any]) -> float:
    """Seconds one call of `fn` takes, with the garbage collector held off, as timeit does.

    A collection is paid for by whichever call happens to cross its threshold: after a large
    trace, that is often the small one timed next.
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        start = time.perf_counter()
        _ready(fn())
        return time.perf_counter() - start
    finally:
        if collecting:
            gc.enable()


def _ready(result: Any) -> None:
    jax = sys.modules.get("jax")
    if jax is not None:
        jax.block_until_ready(result)


def take() -> tuple[list[Record], list[Record]]:
    """Hand the block's facts and claims to the worker, and start the next block empty."""
    facts, claims = list(_facts), list(_claims)
    _facts.clear()
    _claims.clear()
    return facts, claims


def figure(
    name: str,
    x: list[int],
    series: dict[str, list[str]],
    *,
    xlabel: str,
    ylabel: str,
    alt: str,
) -> str:
    """Describe a line chart of values this block recorded; the build draws it as SVG.

    `x` holds the points on the horizontal axis (exact numbers), and `series` maps each
    line's label to the names of the facts, recorded earlier in this block, that give its
    height at each point. The description is recorded as an exact fact, so the golden checks
    it exactly, while the data behind it keeps the bands of its own facts. The prose shows the
    figure with ``{{figure:block-id.name}}`` on a line of its own. `alt` says what it shows.
    """
    import json

    known = {fact["name"]: fact for fact in _facts}
    if not series:
        raise ValueError(f"figure {name!r} has no series")
    for label, names in series.items():
        if len(names) != len(x):
            raise ValueError(
                f"figure {name!r}: series {label!r} has {len(names)} points for {len(x)} x values"
            )
        missing = [n for n in names if n not in known]
        if missing:
            raise ValueError(f"figure {name!r}: series {label!r} names unrecorded facts {missing}")
        if any(
            known[n]["kind"] == "exact" and not isinstance(known[n]["value"], int) for n in names
        ):
            raise ValueError(
                f"figure {name!r}: series {label!r} plots a value that is not a number"
            )
    if not all(isinstance(v, int) for v in x):
        raise TypeError(f"figure {name!r}: x values must be ints, so the golden holds them exactly")
    if not alt.strip() or "\n" in alt:
        raise ValueError(f"figure {name!r}: alt text is one line that says what the figure shows")
    spec = {"kind": "line", "x": x, "series": series, "xlabel": xlabel, "ylabel": ylabel}
    spec["alt"] = alt
    described = "figure " + json.dumps(spec, sort_keys=True, ensure_ascii=False)
    record(name, described)  # an exact fact, so its value comes back as it went in
    return described
