"""`./book stress [N]` (issues 24 and 38): a green build must not depend on the machine.

Each of the N runs of each profile is a cold strict build (BOOK_CACHE=off), under one of the
loads a CI runner meets: `quiet` (nothing else running), `busy` (busy loops take every core
twice over; BOOK_STRESS_LOOPS to change) and `one-core` (the build pinned to a single core, as
`taskset -c 0` does). The loops stop with the command however it ends: done, failed,
interrupted or terminated.

After every build it reads the claims' values the build left (`.cache/bookexec/claims.json`)
and ends with the claim-margin table: for each claim on a timing or a ratio, its worst value
in each profile, and the margin, how many times over the worst run of all still held it. A
claim must hold by at least `MARGIN` everywhere: one that holds only just on the machine that
wrote its golden fails on the next (issue 38, `jit-in-practice#stage-costs`).
"""

from __future__ import annotations

import json
import math
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

from jaxbook.cli.environments import Environment
from jaxbook.cli.process import Failed

BUSY = "book-stress-busy-loop"  # the loop's $0, so that a test can tell its processes apart
PROFILES = ("quiet", "busy", "one-core")
MARGIN = 1.5  # how many times over each claim must hold in the worst run of every profile
CLAIMS = Path(".cache") / "bookexec" / "claims.json"  # `files.CachePaths.claims`, from the root
_CHECK = re.compile(r"golden check: .*")
_SUMMARY = re.compile(r"bookexec summary: .*")
_PROBLEM = re.compile(r"(ERROR|WARNING) ")


def cores() -> int:
    """The cores this process may run on (what `nproc` says)."""
    return len(os.sched_getaffinity(0))


def loops_wanted() -> int:
    """BOOK_STRESS_LOOPS, or two busy loops per core."""
    text = os.environ.get("BOOK_STRESS_LOOPS", "")
    if not text:
        return 2 * cores()
    if not text.isdigit():
        raise Failed(2, f"book: BOOK_STRESS_LOOPS must be a whole number, not {text!r}")
    return int(text)


@contextmanager
def busy_loops(count: int) -> Iterator[list[subprocess.Popen[bytes]]]:
    """`count` shell busy loops, stopped on the way out; SIGTERM ends the command as Ctrl-C."""

    def terminated(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    before = signal.signal(signal.SIGTERM, terminated)
    loops: list[subprocess.Popen[bytes]] = []
    try:
        for _ in range(count):
            loops.append(
                subprocess.Popen(
                    ["sh", "-c", "while :; do :; done", BUSY], stdin=subprocess.DEVNULL
                )
            )
        yield loops
    finally:
        for loop in loops:
            loop.kill()
        for loop in loops:
            loop.wait()
        signal.signal(signal.SIGTERM, before)


@dataclass
class Margins:
    """Each claim's values, run by run, in each profile."""

    # claim -> profile -> margins of its runs
    runs: dict[str, dict[str, list[float]]] = field(default_factory=dict)
    worst: dict[str, dict[str, float]] = field(default_factory=dict)  # the worst left value
    threshold: dict[str, str] = field(default_factory=dict)
    measured: dict[str, bool] = field(default_factory=dict)
    held: dict[str, bool] = field(default_factory=dict)  # in every run

    def add(self, profile: str, values: list[dict[str, Any]]) -> None:
        """One build's claims (`Report.claim_values`)."""
        for value in values:
            name = f"{value['page']}#{value['block']}: {value['claim']}"
            op, left, right = value["op"], float(value["left_value"]), value["right"]
            self.runs.setdefault(name, {}).setdefault(profile, []).append(float(value["margin"]))
            self.measured[name] = self.measured.get(name, False) or bool(value["measured"])
            self.held[name] = self.held.get(name, True) and bool(value["holds"])
            if isinstance(right, str):  # another fact: the value is their ratio
                left = left / float(value["right_value"]) if value["right_value"] else math.inf
                self.threshold[name] = f"{right} x1"
            else:
                self.threshold[name] = f"{right:g}"
            worst = self.worst.setdefault(name, {})
            higher_is_better = op in (">=", ">")
            if profile not in worst:
                worst[profile] = left
            else:
                worst[profile] = (min if higher_is_better else max)(worst[profile], left)

    def table(self, profiles: list[str]) -> tuple[list[str], int]:
        """The claim-margin table, and how many claims fail it."""
        head = ["claim", "threshold", *(f"worst {p}" for p in profiles), "margin", "verdict"]
        rows, bad = [head], 0
        for name in sorted(self.runs):
            seen = self.runs[name]
            worst = [_number(self.worst[name][p]) if p in seen else "-" for p in profiles]
            margin = min(m for p in seen for m in seen[p])
            if not self.measured[name]:  # counts: on any machine it holds or it does not
                verdict = "ok (exact)" if self.held[name] else "FAIL"
                shown = "exact"
            else:
                missing = [p for p in profiles if p not in seen]
                good = margin >= MARGIN and self.held[name] and not missing
                verdict = "ok" if good else "FAIL"
                if missing:
                    verdict += f" (no value under {', '.join(missing)})"
                shown = f"{_number(margin)}x"
            bad += verdict.startswith("FAIL")
            rows.append([name, self.threshold[name], *worst, shown, verdict])
        widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
        lines = [
            "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
            for row in rows
        ]
        return lines, bad


def _number(value: float) -> str:
    return "inf" if math.isinf(value) else f"{value:.3g}"


def stress(env: Environment, runs: int, profiles: list[str] | None = None) -> int:
    """Run the strict build `runs` times in each profile; 0 when every run passed and every
    claim held by `MARGIN` in the worst of them."""
    chosen = list(profiles or PROFILES)
    loops = loops_wanted()
    logs = Path(tempfile.mkdtemp(prefix="book-stress-"))
    margins = Margins()
    failed: dict[str, int] = {}
    try:
        for profile in chosen:
            count = loops if profile == "busy" else 0
            with busy_loops(count):
                print(f"book: stress: {profile}: {runs} cold strict builds {_how(profile, count)}")
                for run in range(1, runs + 1):
                    log = logs / f"stress-{profile}-{run}.txt"
                    passed, values = _one_run(env, profile, run, runs, log)
                    failed[profile] = failed.get(profile, 0) + (not passed)
                    margins.add(profile, values)
    except KeyboardInterrupt:
        return 130
    lines, bad = margins.table(chosen)
    print(f"book: stress: claim margins (each claim must hold {MARGIN:g} times over in the worst")
    print("  run of every profile; a claim on counts holds or not, on any machine):")
    for line in lines:
        print(f"  {line}")
    total = runs * len(chosen)
    runs_bad = sum(failed.values())
    if runs_bad or bad:
        where = ", ".join(f"{n} {p}" for p, n in failed.items() if n)
        said = f"{runs_bad} of {total} runs FAILED ({where})" if runs_bad else "every run passed"
        print(f"book: stress: {said}; {bad} claims under the margin", file=sys.stderr)
        return 1
    print(f"book: stress: {total} of {total} runs passed (0 failed, 0 drifted) in ", end="")
    print(f"{', '.join(chosen)}; every claim held by {MARGIN:g} times or more")
    return 0


def _how(profile: str, loops: int) -> str:
    if profile == "busy":
        return f"with {loops} busy loops on {cores()} cores"
    if profile == "one-core":
        return f"pinned to core {_first_core()} (taskset -c {_first_core()})"
    return f"with nothing else of ours running on {cores()} cores"


def _first_core() -> int:
    return min(os.sched_getaffinity(0))


def _one_run(
    env: Environment, profile: str, run: int, runs: int, log: Path
) -> tuple[bool, list[dict[str, Any]]]:
    started = time.monotonic()
    claims = env.root / CLAIMS
    claims.unlink(missing_ok=True)  # a value left by an earlier build must not count
    pin = ["taskset", "-c", str(_first_core())] if profile == "one-core" else []
    with log.open("wb") as out:
        try:
            done = subprocess.run(
                [*pin, str(env.tool("mkdocs")), "build", "--strict"],
                # The profile goes with it, for a log or a tool of the build to say.
                env={**os.environ, "BOOK_CACHE": "off", "BOOK_STRESS_PROFILE": profile},
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                check=False,
            )
        except OSError as error:
            tool = pin[0] if pin else "mkdocs"
            raise Failed(127, f"book: stress: cannot run {tool}: {error.strerror}") from None
    text = log.read_text(encoding="utf-8", errors="replace")
    passed = done.returncode == 0
    check = _last(_CHECK, text) or "no golden check line"
    summary = _last(_SUMMARY, text) or f"no summary line (see {log})"
    verdict = "passed" if passed else "FAILED"
    took = int(time.monotonic() - started)
    print(f"{profile} run {run}/{runs}: {verdict} in {took} s: {check}")
    print(f"  {summary}")
    if not passed:
        problems = [line for line in text.splitlines() if _PROBLEM.match(line)]
        for line in problems[:20]:
            print(f"  {line}")
        print(f"  full log: {log}")
    sys.stdout.flush()
    return passed, _claims(claims)


def _claims(path: Path) -> list[dict[str, Any]]:
    try:
        values = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []  # a build that stopped before its report: its failure is said above
    return values if isinstance(values, list) else []


def _last(pattern: re.Pattern[str], text: str) -> str:
    found = pattern.findall(text)
    return found[-1] if found else ""
