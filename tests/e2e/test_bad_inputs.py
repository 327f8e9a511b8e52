"""Every bad input the book knows, fed to a real strict build of a small fixture site.

Each case asserts the outcome the project promises: a non-zero build, stopped in bounded
time, whose message names the page, the block, the snippet (and its line where there is one)
and the fix, with no raw traceback of MkDocs or the book, and nothing lost: the goldens are as
they were and no temporary file is left. Damaged goldens are drift, which the update mode
repairs.

Every case adds a row (message, seconds, peak memory, what was kept) to a markdown table,
written to $BOOK_BAD_INPUTS_TABLE, or to bad-inputs.md in pytest's temporary folder.
"""

from __future__ import annotations

import os
import re
import shutil
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from measure import Measured, leftovers, measured_build, raw_traceback

from bookexec._internal.goldens.store import decode_output
from conftest import scaled

pytestmark = pytest.mark.build

GOOD_PAGE = '# Good\n\n```python exec="on" id="good"\n--8<-- "snippets/good/good.py"\n```\n'
GOOD = "import jax\nprint(jax.make_jaxpr(lambda x: x * 2.0)(1.0))\n"
# The good page beside each bad block: it imports nothing, so the good build's peak memory is
# MkDocs' own, and a flood kept by any process of the build (a worker too) stands out above it.
PLAIN = "print('good')\n"
BROKEN_PAGE = '# Broken\n\n{lead}\n\n```python {info}\n--8<-- "{include}"\n```\n'
LEAD_SNIPPET = "snippets/broken/lead.py"
LEAD_FENCE = f'```python exec="on" id="lead"\n--8<-- "{LEAD_SNIPPET}"\n```'
SNIPPET = "snippets/broken/bad.py"
FLOOD_BYTES = 100_000_000
FLOOD_CASE = "a snippet prints a flood of 100 MB"

_ROWS: list[dict] = []


@dataclass
class Case:
    name: str
    code: str | bytes = "print('fine')\n"
    info: str = 'exec="on" id="bad"'
    include: str = SNIPPET
    extra_fence: str = ""  # a second fence on the same page, after the first
    lead: str = ""  # the code of a block before the first, in the same session
    says: list[str] = field(default_factory=list)
    bound: float = 60.0  # seconds the build may take to stop on the reference machine


WHERE = ["docs/broken.md:5", "block 'bad'", SNIPPET]
HANG = "import time\n\nwhile True:\n    time.sleep(0.5)\n"
# The block before lowers (about a second); the block under test only compiles, so its
# timeout lands inside XLA's compile however slow the machine is.
LOWER = """\
import jax
import jax.numpy as jnp
from jax import lax


def body(c, _):
    return jnp.sin(c) * 1.0001 + jnp.cos(c), None


lowered = jax.jit(lambda x: lax.scan(body, x, None, length=20000, unroll=20000)[0]).lower(
    jnp.ones(8)
)
"""
COMPILE_HANG = """\
# XLA compiles the 20000 unrolled steps for far longer than the timeout.
lowered.compile()
"""
FLOOD = f"""\
import sys

for _ in range({FLOOD_BYTES // 1000}):
    sys.stdout.write("x" * 999 + "\\n")
"""

CASES = [
    Case(
        "a snippet raises an unexpected exception",
        code="x = 1\n\nraise RuntimeError('no')\n",
        says=[*WHERE, "line 3", "raised builtins.RuntimeError", 'declare raises="RuntimeError"'],
    ),
    Case(
        "a block declares an exception but raises none",
        info='exec="on" id="bad" raises="KeyError"',
        says=[*WHERE, 'declared raises="KeyError" but nothing was raised', "remove raises="],
    ),
    Case(
        "a block declares one exception and raises another",
        info='exec="on" id="bad" raises="KeyError"',
        code="x = 1\n1 / 0\n",
        says=[*WHERE, "line 2", "raised builtins.ZeroDivisionError", 'declared raises="KeyError"'],
    ),
    Case(
        "a snippet hangs in Python code",
        info='exec="on" id="bad" timeout="3"',
        code=HANG,
        says=[*WHERE, "timed out after 3 s", f"{SNIPPET} line 4", 'raise timeout="..."'],
    ),
    Case(
        "a snippet hangs inside a long XLA compile",
        info='exec="on" id="bad" timeout="10"',
        lead=LOWER,
        code=COMPILE_HANG,
        says=[
            "docs/broken.md:7",
            *WHERE[1:],
            "timed out after 10 s",
            f"{SNIPPET} line 2 (inside backend_compile_and_load)",  # XLA's compile
            'raise timeout="..."',
        ],
    ),
    Case(
        FLOOD_CASE,
        code=FLOOD,
        says=[*WHERE, "line 4", "flooded past 200000 characters", 'raise limit="..."'],
    ),
    Case(
        "a snippet ends its own process",
        code="import os\n\nos._exit(3)\n",
        says=[*WHERE, "worker died", "exit code 3", "raise an exception instead"],
    ),
    Case(
        "an included snippet file is missing",
        include="snippets/broken/ghost.py",
        says=["docs/broken.md:5", "'bad'", "snippets/broken/ghost.py", "create the file"],
    ),
    Case(
        "a snippet file is not valid UTF-8",
        code=b"print('caf\xe9')\n",
        says=[*WHERE, "not valid UTF-8", "save the file as UTF-8"],
    ),
    Case(
        "an executed block has no id",
        info='exec="on"',
        says=["docs/broken.md:5", "has no id", SNIPPET, 'add id="..."'],
    ),
    Case(
        "an executed block's id duplicates another",
        extra_fence='\n```python exec="on" id="bad"\n--8<-- "snippets/broken/bad.py"\n```\n',
        says=["docs/broken.md:9", "duplicate block id 'bad'", "docs/broken.md:5", SNIPPET],
    ),
    Case(
        "an unknown option on an executed fence",
        info='exec="on" id="bad" timout="300"',
        says=[*WHERE, "unknown option 'timout'", "use one of: band, exec, fresh"],
    ),
    Case(
        "a bad value for a known option",
        info='exec="on" id="bad" timeout="soon"',
        says=[*WHERE, 'timeout="soon" must be a positive number', 'like timeout="300"'],
    ),
]


def _good_book(root: Path, code: str) -> Path:
    """A fixture site with one good page running `code`, and its golden."""
    from conftest import _CONFIG, PLUGIN

    (root / "docs").mkdir(parents=True)
    (root / "mkdocs.yml").write_text(_CONFIG.format(plugin=PLUGIN))
    (root / "docs" / "good.md").write_text(GOOD_PAGE)
    (root / "snippets" / "good").mkdir(parents=True)
    (root / "snippets" / "good" / "good.py").write_text(code)
    built = measured_build(root, "update")
    assert built.returncode == 0, built.output
    root.joinpath(".baseline-peak-mib").write_text(f"{built.peak_mib:.1f}")
    return root


@pytest.fixture(scope="module", autouse=True)
def table(tmp_path_factory):
    """The table of what each case said, written once the module's cases have run."""
    yield
    _write_table(tmp_path_factory)


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    """A book whose good page prints a jaxpr, copied for each damaged golden."""
    root = _good_book(tmp_path_factory.mktemp("base") / "book", GOOD)
    # The goldens as written pass a check: a case that restores them byte for byte passes too.
    checked = measured_build(root, "check")
    assert checked.returncode == 0, checked.output
    return root


@pytest.fixture(scope="module")
def plain(tmp_path_factory) -> Path:
    """A book whose good page imports nothing, copied for each bad block."""
    return _good_book(tmp_path_factory.mktemp("plain") / "book", PLAIN)


def _copy(base: Path, tmp_path: Path) -> Path:
    root = tmp_path / "book"
    shutil.copytree(base, root, ignore=shutil.ignore_patterns("site"))
    return root


def goldens(root: Path) -> dict[str, bytes]:
    folder = root / "tests" / "golden"
    files = sorted(p for p in folder.rglob("*") if p.is_file())  # temporary files too
    return {str(p.relative_to(folder)): p.read_bytes() for p in files}


def message_of(output: str, marker: str) -> str:
    """The error line a reader sees: the first line of the output that carries the marker."""
    line = next(line for line in output.splitlines() if marker in line)
    return re.sub(r"^(ERROR|WARNING)\s+-\s+", "", line.strip())


def add_row(case: str, message: str, run: Measured, kept: str) -> None:
    _ROWS.append(
        {
            "case": case,
            "message": message,
            "seconds": run.seconds,
            "mib": run.peak_mib,
            "kept": kept,
        }
    )


def _write_table(tmp_path_factory) -> None:
    path = Path(
        os.environ.get("BOOK_BAD_INPUTS_TABLE") or tmp_path_factory.getbasetemp() / "bad-inputs.md"
    )
    lines = [
        "| bad input | message (quoted) | seconds to stop | peak RSS (MiB) | nothing lost |",
        "| --- | --- | ---: | ---: | --- |",
    ]
    for row in _ROWS:
        message = row["message"].replace("|", "\\|")
        lines.append(
            f"| {row['case']} | `{message}` | {row['seconds']:.1f} | {row['mib']:.0f} "
            f"| {row['kept']} |"
        )
    path.write_text("\n".join(lines) + "\n")
    print(f"\nbad-input table written to {path}")


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_bad_block_stops_the_build_with_a_clear_message_and_loses_nothing(plain, tmp_path, case):
    root = _copy(plain, tmp_path)
    info = case.info
    lead = LEAD_FENCE if case.lead else "Text."
    (root / "docs" / "broken.md").write_text(
        BROKEN_PAGE.format(lead=lead, info=info, include=case.include) + case.extra_fence
    )
    snippet = root / SNIPPET
    snippet.parent.mkdir(parents=True)
    if case.lead:
        (root / LEAD_SNIPPET).write_text(case.lead)
    if isinstance(case.code, bytes):
        snippet.write_bytes(case.code)
    else:
        snippet.write_text(case.code)
    before = goldens(root)

    # The update mode: the one that writes, so the one that could lose something.
    run = measured_build(root, "update", timeout=case.bound + 60)

    assert run.returncode != 0, run.output
    assert run.seconds < scaled(case.bound), run.output
    message = message_of(run.output, case.says[1])
    for part in case.says:
        assert part in run.output, (part, run.output)
    assert not raw_traceback(run.output), run.output
    after = goldens(root)
    # a lead block that ran cleanly may record its own golden; no other golden changes
    assert {name: after.get(name) for name in before} == before
    assert set(after) - set(before) <= ({"broken/lead.txt"} if case.lead else set())
    assert leftovers(root / "tests" / "golden") == []
    if case.name == FLOOD_CASE:
        _assert_memory_bounded(plain, run)
    add_row(case.name, message, run, "goldens unchanged, no temp files, none written")


def _assert_memory_bounded(base: Path, run: Measured) -> None:
    """The flood judged on memory too: the cap keeps the build near the good page's alone."""
    baseline = float((base / ".baseline-peak-mib").read_text())
    # Had any process kept the flood, its peak would be at least 100 MB above the baseline.
    print(f"\n100 MB flood: peak RSS {run.peak_mib:.0f} MiB, good build {baseline:.0f} MiB")
    assert run.peak_mib < baseline + 48, (run.peak_mib, baseline)


def test_bytes_that_are_not_utf8_are_shown_as_replacement_characters(plain, tmp_path):
    """A defined behaviour, not an error: what a terminal shows, the same on every build."""
    root = _copy(plain, tmp_path)
    code = """\
    import sys

    sys.stdout.buffer.write(b"raw: \\xff\\xfe end\\n")
    word = "café".encode()
    sys.stdout.buffer.write(word[:4])  # the é split across two writes
    sys.stdout.buffer.write(word[4:] + b"\\n")
    print("surrogate: \\udcff")
    sys.stdout.buffer.write(b"cut: \\xc3")  # a character never finished
    """
    (root / "docs" / "bytes.md").write_text(
        '# Bytes\n\n```python exec="on" id="bytes"\n--8<-- "snippets/bytes/bytes.py"\n```\n'
    )
    (root / "snippets" / "bytes").mkdir(parents=True)
    (root / "snippets" / "bytes" / "bytes.py").write_text(textwrap.dedent(code), encoding="utf-8")
    first = measured_build(root, "update")
    assert first.returncode == 0, first.output
    golden = (root / "tests" / "golden" / "bytes" / "bytes.txt").read_bytes()
    body = golden.decode("utf-8").split("---\n", 1)[1]  # the golden itself is valid UTF-8
    expected = b"raw: \xff\xfe end\ncaf\xc3\xa9\n".decode("utf-8", errors="replace")
    # The last line has no newline, as printed: the golden keeps that, escaped.
    expected += "surrogate: \ufffd\n" + b"cut: \xc3".decode("utf-8", errors="replace")
    assert decode_output(body) == (expected, None)
    html = (root / "site" / "bytes" / "index.html").read_text(encoding="utf-8")
    assert "raw: \ufffd\ufffd end" in html and "café" in html
    again = measured_build(root, "check")
    assert again.returncode == 0, again.output
    add_row(
        "a snippet writes bytes that are not valid UTF-8",
        "(no error) the page and golden show U+FFFD for each bad byte: `raw: \ufffd\ufffd end`",
        first,
        "golden valid UTF-8; a second build matches it",
    )


def _damage_good_golden(root: Path, how: str) -> bytes:
    path = root / "tests" / "golden" / "good" / "good.txt"
    original = path.read_bytes()
    if how == "not valid UTF-8":
        path.write_bytes(original.replace(b"lambda", b"lam\xff\xfeda", 1))
    elif how == "truncated":
        path.write_bytes(original[: len(original) // 3])
    elif how == "corrupt (random bytes)":
        path.write_bytes(bytes(range(256)) * 3)
    elif how == "empty":
        path.write_bytes(b"")
    elif how == "beside a damaged VERSIONS file":
        versions = root / "tests" / "golden" / "VERSIONS"
        versions.write_text(versions.read_text().split("jaxlib:")[0])  # cut short
        path.write_text(path.read_text().replace("lambda", "lambda ", 1))
    return original


DAMAGE = {
    "not valid UTF-8": ["not valid UTF-8 (byte", "GOLDEN=update rewrites it"],
    "truncated": ["damaged or truncated", "GOLDEN=update rewrites it"],
    "corrupt (random bytes)": ["not valid UTF-8 (byte", "GOLDEN=update rewrites it"],
    "empty": ["damaged or truncated", "GOLDEN=update rewrites it"],
    "beside a damaged VERSIONS file": ["VERSIONS: tests/golden/VERSIONS is damaged"],
}


@pytest.mark.parametrize("how", list(DAMAGE))
def test_a_damaged_golden_is_readable_drift_and_update_repairs_it(base, tmp_path, how):
    root = _copy(base, tmp_path)
    original = _damage_good_golden(root, how)
    damaged = goldens(root)

    run = measured_build(root, "check")
    assert run.returncode != 0
    assert run.seconds < scaled(60)
    assert not raw_traceback(run.output), run.output
    found = re.search(
        r"DRIFTED \(\w+\): page docs/good\.md, block 'good', snippet snippets/good/good\.py",
        run.output,
    )
    assert found, run.output
    for part in DAMAGE[how]:
        assert part in run.output, (part, run.output)
    if how.startswith("beside"):
        # The versions come first, before any per-block report.
        assert run.output.index("VERSIONS: tests/golden/VERSIONS") < found.start()
    else:
        assert "goldens written under" not in run.output  # a damaged golden says nothing of it
    assert goldens(root) == damaged  # check mode never writes

    repaired = measured_build(root, "update")
    assert repaired.returncode == 0, repaired.output
    assert (root / "tests" / "golden" / "good" / "good.txt").read_bytes() == original
    # Every golden (VERSIONS too) is the base's again, which its check passed (`base`).
    assert goldens(root) == goldens(base)
    add_row(
        f"a golden is {how}",
        f"{message_of(run.output, found[0])} / {message_of(run.output, DAMAGE[how][0])}",
        run,
        "check wrote nothing; GOLDEN=update restored the golden byte for byte",
    )
