"""Measure a real strict build: its seconds, its peak memory, and whether it left litter.

The build runs under a small Python parent that reports `RUSAGE_CHILDREN`: the peak resident
size of the largest process of the build, MkDocs or any page worker it waited for.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from conftest import MKDOCS, scaled

_PARENT = """\
import json, resource, subprocess, sys
code = subprocess.call(sys.argv[2:])
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # KiB on Linux
with open(sys.argv[1], "w") as out:
    json.dump({"peak_kib": peak}, out)
sys.exit(code)
"""


@dataclass
class Measured:
    returncode: int
    output: str
    seconds: float
    peak_mib: float


def measured_build(root: Path, mode: str = "check", timeout: float = 300, **env: str) -> Measured:
    environ = {**os.environ, "GOLDEN": mode, "NO_MKDOCS_2_WARNING": "1", **env}
    report = root.parent / f".rusage-{time.monotonic_ns()}.json"
    start = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-c", _PARENT, str(report), str(MKDOCS), "build", "--strict"],
        cwd=root,
        env=environ,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=scaled(timeout),
    )
    seconds = time.monotonic() - start
    peak = json.loads(report.read_text())["peak_kib"] / 1024
    report.unlink()
    return Measured(proc.returncode, proc.stdout, seconds, peak)


def leftovers(golden_dir: Path) -> list[str]:
    """Temporary files an atomic write left behind."""
    if not golden_dir.is_dir():
        return []
    return sorted(str(p.relative_to(golden_dir)) for p in golden_dir.rglob("*.tmp"))


def raw_traceback(output: str) -> bool:
    """Did MkDocs or the book's own code crash, rather than report an error in words?"""
    return any(marker in output for marker in ("/site-packages/mkdocs/", "/hooks/bookexec/"))
