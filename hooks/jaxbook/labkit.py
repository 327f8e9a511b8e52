"""The lab kit: what every lab's hidden `checks` cell is built on.

The build inlines this file's source into each lab's `checks` cell where the cell has the line
`# lab kit` (`jaxbook.labs.with_kit`): for the page's run, for the notebook a reader downloads,
which runs where the book is not installed, and for tests/lab_runner.py. So it imports only
JAX, NumPy and the standard library, and a learner sees only `check(n, problem_n)`.

A check is differential: `differs` runs the learner's function and the worked solution's logic
(a reference kept in the checks cell) on inputs drawn when the check runs (`draw()` gives a
generator seeded afresh each time), and names the first input whose result differs in
structure, shape, dtype, sharding or value. Counts come from JAX's own log of its traces,
compiles and tracing-cache misses (`counting`), never from anything the learner keeps; leaked
tracers from `jax.checking_leaks` (`leaks`); structure from the primitives of the learner's
traced jaxpr, nested jaxprs included (`primitives`, `structure`); a prediction must be of the
type asked (`typed`).
"""

import contextlib
import dataclasses
import logging
import os
import re
import secrets
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import jax
import numpy as np


class NotYet(Exception):
    """What is wrong with an answer, and a hint: `check` prints it after "not yet: "."""


Problem = Callable[[], str | None]


# A log line of JAX's compiler, written by C++ straight to the process's stderr, such as
# `W1206 05:33:20.422968   19959 spmd_partitioner.cc:666] [SPMD] Involuntary full ...`.
_COMPILER_LOG = re.compile(r"^[IWEF]\d{4} \d\d:\d\d:\d\d\.\d+\s+\d+ [\w.]+:\d+\] ")


@contextlib.contextmanager
def _compiler_logs_kept_out() -> Iterator[None]:
    """While a check runs on inputs of its own drawing, the compiler's log lines about them
    (a resharding XLA finds slow, say) are not the learner's concern and would make the same
    answer print differently from run to run: file descriptor 2 goes to a temporary file, and
    every other line is written back to stderr afterwards."""
    sys.stderr.flush()
    try:
        saved = os.dup(2)
    except OSError:  # no stderr to redirect: nothing to keep out
        yield
        return
    with tempfile.TemporaryFile() as caught:
        os.dup2(caught.fileno(), 2)
        try:
            yield
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
            caught.seek(0)
            text = caught.read().decode(errors="replace")
            kept = [ln for ln in text.splitlines(True) if not _COMPILER_LOG.match(ln)]
            if kept:
                sys.stderr.write("".join(kept))
                sys.stderr.flush()


def check(number: int, problem: Problem) -> None:
    """Print `Exercise <number>: correct`, or `not yet: ` and why, never a traceback."""
    try:
        with _compiler_logs_kept_out():
            wrong = problem()
    except NotImplementedError:
        wrong = (
            "an answer cell still raises NotImplementedError (the stub you were given): "
            "replace it with your code, run it, then run this check again"
        )
    except NotYet as why:
        wrong = str(why)
    except Exception as error:  # the answer failed: say how, without a traceback
        first = str(error).splitlines()[0] if str(error) else ""
        wrong = f"running your answer raised {type(error).__name__}: {first}"
    print(f"Exercise {number}: " + ("correct" if wrong is None else f"not yet: {wrong}"))


# -- inputs drawn when the check runs ------------------------------------------------------


def draw() -> np.random.Generator:
    """A generator seeded afresh: the inputs of one run are not those of the last."""
    return np.random.default_rng(secrets.randbits(64))


def shown(value: object) -> str:
    """An input or a result, short enough for a one-line hint."""
    if isinstance(value, (jax.Array, np.ndarray)):
        text = np.array2string(np.asarray(value), precision=3, threshold=12, separator=", ")
        return f"{text} ({value.dtype}{list(value.shape)})".replace("\n", "")
    if isinstance(value, tuple):
        return "(" + ", ".join(shown(v) for v in value) + ("," if len(value) == 1 else "") + ")"
    if isinstance(value, list):
        return "[" + ", ".join(shown(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k!r}: {shown(v)}" for k, v in value.items()) + "}"
    return repr(value)


# -- differential checks -------------------------------------------------------------------


def mismatch(got: object, want: object, *, rtol: float = 1e-5, atol: float = 1e-6) -> str | None:
    """How `got` differs from `want`: pytree structure, then each leaf's type, shape, dtype,
    sharding and values (shapes before values: `allclose` broadcasts); None when it does not."""
    got_leaves, got_tree = jax.tree.flatten(got)
    want_leaves, want_tree = jax.tree.flatten(want)
    if str(got_tree) != str(want_tree):  # a treedef prints its node types and static data
        text = f"{shown(got)}, not {shown(want)}"
        return text if len(text) < 300 else f"a result of structure {got_tree}, not {want_tree}"
    for a, b in zip(got_leaves, want_leaves, strict=True):
        if isinstance(b, (jax.Array, np.ndarray)) != isinstance(a, (jax.Array, np.ndarray)):
            return f"{shown(a)}, not {shown(b)}"
        if not hasattr(b, "shape"):
            if a != b or type(a) is not type(b):
                return f"{shown(a)}, not {shown(b)}"
            continue
        if a.shape != b.shape:
            return f"an array of shape {a.shape}, not {b.shape}"
        if a.dtype != b.dtype:
            return f"an array of dtype {a.dtype}, not {b.dtype}"
        if _placed_apart(a, b):
            return f"an array placed {a.sharding}, not {b.sharding}"
        x, y = np.asarray(a), np.asarray(b)
        exact = not np.issubdtype(y.dtype, np.inexact)
        if not (np.array_equal(x, y) if exact else np.allclose(x, y, rtol, atol, equal_nan=True)):
            return f"{shown(a)}, not {shown(b)}"
    return None


def _placed_apart(a: object, b: object) -> bool:
    """Whether two arrays of the same shape are laid out differently over the devices."""
    if not (isinstance(a, jax.Array) and isinstance(b, jax.Array)):
        return False
    return not a.sharding.is_equivalent_to(b.sharding, a.ndim)


def differs(
    answer: Callable[..., Any],
    reference: Callable[..., Any],
    cases: Iterable[Sequence[Any]],
    *,
    name: str = "your function",
    rtol: float = 1e-5,
    atol: float = 1e-6,
) -> str | None:
    """The first case whose result differs from the reference's, in words; None if none does."""
    for args in cases:
        want = reference(*args)
        got = answer(*args)
        if wrong := mismatch(got, want, rtol=rtol, atol=atol):
            return f"for {', '.join(shown(a) for a in args)} {name} gives {wrong}"
    return None


# -- JAX's own counters --------------------------------------------------------------------

# Where JAX logs each trace for jit, each compile and each tracing-cache miss, and the words it
# uses (`jax.log_compiles`, `jax.explain_cache_misses`) (a unit test of the kit pins them).
_LOGS = {
    "traces": ("jax._src.dispatch", re.compile(r"^Finished tracing (?P<name>\S+) for jit")),
    "compiles": ("jax._src.interpreters.pxla", re.compile(r"^Compiling jit\((?P<name>[^)]*)\)")),
    "misses": (
        "jax._src.interpreters.partial_eval",
        re.compile(r"^TRACING CACHE MISS .*\n\s*for (?P<name>\S+) defined", re.S),
    ),
}


@dataclasses.dataclass
class Counts:
    """What JAX did while `counting` ran, per function name as JAX logs it."""

    traces: Counter[str] = dataclasses.field(default_factory=Counter)
    compiles: Counter[str] = dataclasses.field(default_factory=Counter)
    misses: Counter[str] = dataclasses.field(default_factory=Counter)


class _Recorder(logging.Handler):
    def __init__(self, counts: Counts) -> None:
        super().__init__(logging.DEBUG)
        self.counts = counts

    def emit(self, record: logging.LogRecord) -> None:
        for kind, (logger, pattern) in _LOGS.items():
            if record.name == logger and (found := pattern.search(record.getMessage())):
                getattr(self.counts, kind)[found["name"]] += 1


@contextlib.contextmanager
def counting() -> Iterator[Counts]:
    """Count the traces, compiles and cache misses JAX logs while the block runs. JAX's log
    lines are kept from the learner's screen for that time."""
    counts = Counts()
    recorder = _Recorder(counts)
    loggers = [logging.getLogger(name) for name, _ in _LOGS.values()]
    saved = [(lg.level, lg.propagate) for lg in loggers]
    for lg in loggers:
        lg.addHandler(recorder)
        lg.setLevel(logging.DEBUG)
        lg.propagate = False
    try:
        with jax.log_compiles(True), jax.explain_cache_misses(True):
            yield counts
    finally:
        for lg, (level, propagate) in zip(loggers, saved, strict=True):
            lg.removeHandler(recorder)
            lg.setLevel(level)
            lg.propagate = propagate


def leaks(fn: Callable[..., Any], *args: Any) -> str | None:
    """The tracer `fn` leaks when traced (kept past its trace, in a list or a global), or None.
    JAX's caches are cleared first: a jitted `fn` already traced for these arguments would
    answer from its cache and run no Python."""
    jax.clear_caches()  # type: ignore[no-untyped-call]  # JAX leaves it unannotated
    try:
        with jax.checking_leaks():
            jax.make_jaxpr(fn)(*args)
    except Exception as error:
        if "Leaked" not in str(error):
            raise
        return "it keeps a tracer after its trace ends (jax.checking_leaks reports a leak)"
    return None


# -- structure read from the traced program ------------------------------------------------


# The primitives of a call to a jaxpr of one's own: `producer` looks inside them.
_CALLS = ("jit", "pjit", "closed_call", "core_call")


def _inner(param: object) -> Iterator[Any]:
    """The jaxprs a parameter holds: a jit's, a cond's branches, a while's body and cond, a
    scan's body, a custom rule's `call_jaxpr`, open or closed."""
    for value in param if isinstance(param, (tuple, list)) else [param]:
        value = getattr(value, "jaxpr", value)  # a closed jaxpr: its open one
        if hasattr(value, "eqns"):
            yield value


def equations(jaxpr: Any) -> Iterator[Any]:
    """Every equation of a jaxpr (open or closed), those of nested jaxprs included."""
    for eqn in getattr(jaxpr, "jaxpr", jaxpr).eqns:
        yield eqn
        for param in eqn.params.values():
            for inner in _inner(param):
                yield from equations(inner)


def producer(jaxpr: Any, out: Any) -> Any:
    """The equation that computes `out` in `jaxpr`, looking inside a `jit` that computes it;
    None when `out` is an input or a constant."""
    jaxpr = getattr(jaxpr, "jaxpr", jaxpr)
    for eqn in jaxpr.eqns:
        for k, made in enumerate(eqn.outvars):
            if made is out:
                inner = eqn.params.get("jaxpr") if eqn.primitive.name in _CALLS else None
                if inner is None:
                    return eqn
                inner = getattr(inner, "jaxpr", inner)
                return producer(inner, inner.outvars[k])
    return None


def feeds(jaxpr: Any, var: Any, out: Any) -> bool:
    """Whether `out` is computed from `var` in `jaxpr` (a nested jaxpr counts as one step)."""
    jaxpr = getattr(jaxpr, "jaxpr", jaxpr)
    needed = {id(out)}
    for eqn in reversed(jaxpr.eqns):
        if any(id(o) in needed for o in eqn.outvars):
            needed |= {id(x) for x in eqn.invars if not hasattr(x, "val")}
    return out is not var and id(var) in needed


def values(jaxpr: Any, inputs: Sequence[Any], wanted: Sequence[Any]) -> list[Any]:
    """The values of some variables of an open jaxpr, given the values of its constvars then
    its invars: JAX evaluates the jaxpr with those variables as its outputs."""
    sub = jaxpr.replace(outvars=list(wanted))
    count = len(jaxpr.constvars)
    return list(jax.core.eval_jaxpr(sub, list(inputs[:count]), *inputs[count:]))


def innermost(fn: Callable[..., Any], *args: Any) -> tuple[Any, list[Any], Any]:
    """The jaxpr that computes `fn(*args)`'s first output, inside the jits that return it; the
    values of its constvars and invars on these arguments; and that output's variable."""
    closed = jax.make_jaxpr(fn)(*args)
    jaxpr, inputs = closed.jaxpr, [*closed.consts, *jax.tree.leaves(args)]
    out = jaxpr.outvars[0]
    while True:
        eqn = next((e for e in jaxpr.eqns if any(o is out for o in e.outvars)), None)
        if eqn is None or eqn.primitive.name not in _CALLS:
            return jaxpr, inputs, out
        k = next(i for i, o in enumerate(eqn.outvars) if o is out)
        called = eqn.params["jaxpr"]
        inputs = [*getattr(called, "consts", []), *values(jaxpr, inputs, eqn.invars)]
        jaxpr = getattr(called, "jaxpr", called)
        out = jaxpr.outvars[k]


def primitives(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Counter[str]:
    """How many times each primitive occurs in `fn`'s jaxpr on these arguments, nested
    jaxprs included."""
    return Counter(eqn.primitive.name for eqn in equations(jax.make_jaxpr(fn)(*args, **kwargs)))


def structure(
    fn: Callable[..., Any],
    args: Sequence[Any],
    *,
    required: Iterable[str] = (),
    forbidden: Iterable[str] = (),
    name: str = "your function",
) -> str | None:
    """What `fn`'s jaxpr lacks of `required` or holds of `forbidden`, in words; or None."""
    found = primitives(fn, *args)
    if missing := [p for p in required if not found[p]]:
        return f"the jaxpr of {name} has no {', '.join(missing)}: print it with jax.make_jaxpr"
    if present := [p for p in forbidden if found[p]]:
        return f"the jaxpr of {name} has {', '.join(present)}, which this exercise does without"
    return None


# -- predictions ---------------------------------------------------------------------------


def typed(name: str, value: object, kind: type | tuple[type, ...], asked: str) -> str | None:
    """Why `value` is not of the type asked (a bool is not an int here), or None."""
    if value is None:
        return f"set {name} to {asked}"
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool) and bool not in kinds:
        return f"{name} is {value!r}, a bool: it should be {asked}"
    if not isinstance(value, kinds):
        return f"{name} is {value!r}, a {type(value).__name__}: it should be {asked}"
    return None
