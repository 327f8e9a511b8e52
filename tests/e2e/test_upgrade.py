"""The maintainer's path through a JAX change: the check reports everything, an unchanged
output is not drift, the update writes what it can, hand-typed values are caught, and the
drift watch runs here exactly as the workflow runs it. The real upgrade (JAX 0.11.2 installed
in place of the pin, in its own venv) is at the end; older releases are run over the whole book by
`./book jax-changes`, whose records the strict build checks."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bookexec._internal.goldens.store import VERSIONS_FILE, read_versions
from conftest import REPO, cut_book
from jaxbook.cli.environments import STAMP, inputs_hash
from jaxbook.drift_watch import scratch_copy

pytestmark = pytest.mark.build

TWO_PAGES = {
    "first.md": """\
# First

```python exec="on" id="defines"
--8<-- "snippets/first/defines.py"
```

```python exec="on" id="breaks"
--8<-- "snippets/first/breaks.py"
```

```python exec="on" id="uses-it"
--8<-- "snippets/first/uses_it.py"
```

```python exec="on" id="independent"
--8<-- "snippets/first/independent.py"
```
""",
    "second.md": """\
# Second

```python exec="on" id="moves"
--8<-- "snippets/second/moves.py"
```
""",
}


def write_book(site, breaks: str = "made = 2\nprint('made', made)\n") -> None:
    for name, text in TWO_PAGES.items():
        site.page(name, text)
    site.snippet("first/defines.py", "base = 40\nprint('base', base)\n")
    site.snippet("first/breaks.py", breaks)
    site.snippet("first/uses_it.py", "print('sum', base + made)\n")
    site.snippet("first/independent.py", "print('independent', base)\n")
    site.snippet("second/moves.py", "print('first output')\n")


def written_book(site) -> None:
    write_book(site)
    assert site.build("update").returncode == 0


@pytest.fixture
def written(prebuilt, tmp_path):
    """The two-page book with its goldens written, a copy of its own for each test."""
    return prebuilt(written_book, tmp_path)


def error_lines(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.startswith("ERROR")]


def test_a_failing_block_mid_page_is_reported_with_the_drift_and_every_block_is_checked(written):
    site = written
    site.snippet("first/breaks.py", "made = 2\nraise ValueError('broken on purpose')\n")
    site.snippet("first/uses_it.py", "print('sum', base + made + missing)\n")
    site.snippet("second/moves.py", "print('second output')\n")  # drift on another page

    result = site.build()
    assert result.returncode != 0
    out = result.output
    assert "Error reading page" not in out  # the build never stops inside a page
    # every block is accounted for: 5 blocks, 2 failed, 1 drifted
    assert "golden check: 5 blocks checked, 2 failed, 1 drifted, 0 new, 0 stale" in out
    # failures come before drift; the dependent failure says an earlier block failed first
    errors = out[out.index("ERROR") :]  # the report, with its indented detail lines
    first, dependent = errors.index("block 'breaks'"), errors.index("block 'uses-it'")
    assert first < dependent < errors.index("DRIFTED (text): page docs/second.md")
    assert "ValueError" in errors and "line 2" in errors
    assert "block 'breaks' failed earlier in this page's session" in errors
    # the block after the failures still ran in the page's session, and passed
    assert "block 'independent'" not in errors
    # MkDocs' last word is ours: the summary
    last = [line for line in out.splitlines() if line.strip()][-2:]
    assert "golden check: 5 blocks checked, 2 failed" in last[0]

    report = json.loads((site.root / ".cache" / "bookexec" / "last-report.json").read_text())
    kinds = [(e["kind"], e["block_id"]) for e in report["entries"]]
    assert kinds == [("failed", "breaks"), ("failed", "uses-it"), ("text", "moves")]
    review = subprocess.run(
        [sys.executable, "-m", "jaxbook.cli", "review", "--list"],
        cwd=site.root,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
    )
    assert "failed: docs/first.md#breaks" in review.stdout


def test_a_timeout_and_a_flood_stop_only_their_block(written):
    site = written
    site.snippet("first/breaks.py", "import time\nmade = 2\ntime.sleep(60)\n")
    site.snippet("second/moves.py", "print('x' * 300000)\n")
    result = site.build(BOOK_BLOCK_TIMEOUT="3", timeout=120)
    assert result.returncode != 0
    assert "timed out after 3 s" in result.output
    assert "flooded past" in result.output
    # the session died with the killed worker: the next blocks ran in a new one, and say so
    assert "block 'breaks' failed earlier in this page's session" in result.output
    assert "golden check: 5 blocks checked, 4 failed, 0 drifted" in result.output


def test_unchanged_output_under_other_versions_is_not_drift(written):
    site = written
    versions = site.root / "tests" / "golden" / VERSIONS_FILE
    recorded = read_versions(versions.parent)
    # Its pages never name JAX, so no worker loaded it: no backend ran them.
    assert recorded is not None and recorded.backend == "none"
    before = site.goldens()
    # As if the goldens had been written under another JAX: rewrite only the versions file,
    # the way an update under that JAX would have (the goldens themselves are untouched).
    from bookexec._internal.goldens.store import Provenance, write_versions

    write_versions(
        versions.parent,
        Provenance.of(
            {"jax": "0.0.1", "jaxlib": "0.0.1", "python": recorded.version("python")}, "cpu"
        ),
    )
    result = site.build()
    assert result.returncode == 0, result.output
    note = "goldens written under jax 0.0.1 (jaxlib 0.0.1"
    assert note in result.output and "5 blocks unchanged, 0 changed" in result.output
    assert "GOLDEN=update records the new versions" in result.output
    assert site.build("update").returncode == 0
    assert site.goldens() == before  # only the versions file changed
    assert read_versions(versions.parent) == recorded


CLAIMED = """\
from bookexec.facts import claim, record

n = record("n", {n})
claim("n", ">=", 3, says="there are at least three")
print("n is", n)
"""


def test_update_writes_what_it_can_and_refuses_only_broken_claims(site):
    site.page(
        "claims.md",
        "# Claims\n\nThere are {{fact:counted.n}} of them.\n\n"
        '```python exec="on" id="counted"\n--8<-- "snippets/claims/counted.py"\n```\n\n'
        '```python exec="on" id="other"\n--8<-- "snippets/claims/other.py"\n```\n',
    )
    site.snippet("claims/counted.py", CLAIMED.format(n=4))
    site.snippet("claims/other.py", "print('one')\n")
    assert site.build("update").returncode == 0
    counted = site.golden("claims.md", "counted").read_text()
    site.snippet("claims/counted.py", CLAIMED.format(n=2))  # the claim breaks
    site.snippet("claims/other.py", "print('two')\n")  # plain drift

    first = site.build("update")
    assert first.returncode != 0
    assert "REFUSED: docs/claims.md#counted" in first.output
    assert "there are at least three" in first.output
    assert "it guards docs/claims.md:3: There are {{fact:counted.n}} of them." in first.output
    assert site.golden("claims.md", "counted").read_text() == counted  # refused: untouched
    assert "two" in site.golden("claims.md", "other").read_text()  # written anyway

    site.snippet("claims/counted.py", CLAIMED.format(n=2).replace(">=", "<="))  # prose fixed
    second = site.build("update")
    assert second.returncode == 0, second.output
    assert site.build().returncode == 0


AUDITED = """\
---
{front}
---
# Audited

The block counts {count} things.

```python exec="on" id="count"
--8<-- "snippets/audited/count.py"
```
"""


@pytest.mark.parametrize(
    ("front", "count", "passes", "message"),
    [
        ("title: Audited", "12", False, "docs/audited.md:6: number '12' typed by hand"),
        ("title: Audited", "{{fact:count.n}}", True, None),
        (
            'prose-audit:\n  - text: "counts 12 things"\n    reason: a quotation',
            "12",
            True,
            None,
        ),
        (
            'prose-audit:\n  - text: "counts 99 things"\n    reason: stale',
            "{{fact:count.n}}",
            False,
            "prose-audit exception 'counts 99 things' matches nothing",
        ),
    ],
)
def test_the_prose_audit_catches_a_hand_typed_count(site, front, count, passes, message):
    site.page("audited.md", AUDITED.format(front=front, count=count))
    site.snippet(
        "audited/count.py",
        "from bookexec.facts import record\nprint('there are', record('n', 12))\n",
    )
    result = site.build("update")
    assert (result.returncode == 0) is passes, result.output
    if message:
        assert message in result.output


def test_a_version_in_a_nav_title_is_caught(site):
    site.page("a.md", "# A\n")
    config = site.root / "mkdocs.yml"
    config.write_text(config.read_text() + 'nav:\n  - "Changes up to 0.12.0.1": a.md\n')
    result = site.build()
    assert result.returncode != 0
    assert "mkdocs.yml nav: title 'Changes up to 0.12.0.1' has version '0.12.0.1'" in result.output


LONG = "a-chapter-whose-name-is-long-enough-for-a-cut"  # git's --stat cuts such a path
LONG_ID = "a-block-whose-id-is-long-enough-to-be-cut"


def test_drift_watch_leaves_its_artifacts_and_never_touches_the_checkout(written, tmp_path):
    site = written
    site.page(
        f"{LONG}.md",
        f'# Long\n\n```python exec="on" id="{LONG_ID}"\n--8<-- "snippets/{LONG}/block.py"\n```\n',
    )
    site.snippet(f"{LONG}/block.py", "print('before')\n")
    assert site.build("update").returncode == 0
    subprocess.run(["git", "init", "-q"], cwd=site.root, check=True)
    site.snippet("second/moves.py", "print('second output')\n")
    site.snippet(f"{LONG}/block.py", "print('after')\n")
    golden_before = site.goldens()
    out = tmp_path / "artifacts"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "jaxbook.cli",
            "drift-watch",
            "--jax",
            "fixture",
            "--python",
            sys.executable,
            "--out",
            str(out),
        ],
        cwd=site.root,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    assert "check exited 1" in proc.stdout
    for name in ("versions.txt", "report.txt", "last-report.json", "update.txt", "golden.diff"):
        assert (out / name).is_file(), name
    assert "DRIFTED (text): page docs/second.md" in (out / "report.txt").read_text()
    assert "+second output" in (out / "golden.diff").read_text()
    summary = json.loads((out / "summary.json").read_text())
    assert summary["changed_files"] == [  # whole paths, however long
        f"tests/golden/{LONG}/{LONG_ID}.txt",
        "tests/golden/second/moves.txt",
    ]
    assert site.goldens() == golden_before


WORKFLOW = REPO / ".github" / "workflows" / "drift-watch.yml"


def workflow_command(release: str) -> list[str]:
    """The drift watch's command line in the weekly workflow, with `release` for its latest."""
    lines = [line.strip() for line in WORKFLOW.read_text().splitlines()]
    run_line = next(line for line in lines if line.startswith("run: ./book drift-watch"))
    return [release if word == "latest" else word for word in shlex.split(run_line[5:])]


# The other release both the weekly workflow's run and the real upgrade below take.
RELEASE = "0.11.2"


# The command makes its JAX venv (the book's packages with RELEASE in place of the pin) in the
# copy, and builds the fixture twice under it: a few minutes. Once per module: the real
# upgrade runs its builds from the venv this command made.
@pytest.fixture(scope="module")
def weekly_watch(prebuilt, tmp_path_factory):
    """Issue 38: the workflow's own command line, without --python, so the command makes
    `.cache/jax-RELEASE` itself and runs the builds from it inside the scratch copy (a path
    relative to the checkout once made that crash). The fixture stands in for the book only:
    the copy has the book's launcher, pyproject, engine source and set-up `.venv`. Returns the
    copy, what the command said and the goldens before it ran."""
    site = prebuilt(written_book, tmp_path_factory.mktemp("weekly"))
    root = site.root
    for name in ("book", "pyproject.toml", ".python-version", "README.md"):
        shutil.copy2(REPO / name, root / name)
    shutil.copytree(REPO / "hooks", root / "hooks", ignore=shutil.ignore_patterns("__pycache__"))
    # The checkout's interpreter and tools, stamped as set up for this copy: the launcher execs
    # them, and nothing is installed (a symlink to the whole .venv let the copy's set-up
    # reinstall the book from the copy into the checkout's own .venv).
    (root / ".venv").mkdir()
    (root / ".venv" / "bin").symlink_to(REPO / ".venv" / "bin")
    (root / ".venv" / STAMP).write_text(f"{inputs_hash(root)} test\n")
    (root / ".gitignore").write_text(".venv\n.cache/\nsite/\ndrift-report/\n*.egg-info/\n")
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    site.snippet("second/moves.py", "print('second output')\n")
    golden_before = site.goldens()
    command = workflow_command(RELEASE)
    assert "--python" not in command and command[:3] == ["./book", "drift-watch", "--jax"]
    environ = {k: v for k, v in os.environ.items() if k not in {"GOLDEN", "BOOK_CACHE"}}
    proc = subprocess.run(
        command, cwd=root, env=environ, capture_output=True, text=True, timeout=1700
    )
    return site, proc, golden_before


@pytest.mark.timeout(1800)
def test_drift_watch_runs_as_the_weekly_workflow_runs_it(weekly_watch):
    site, proc, golden_before = weekly_watch
    root = site.root
    said = proc.stdout + proc.stderr
    assert proc.returncode == 0, said[-5000:]
    assert "Traceback" not in said, said[-5000:]
    assert (root / ".cache" / f"jax-{RELEASE}" / "bin" / "mkdocs").is_file()
    out = root / "drift-report"
    assert f"drift-watch: jax {RELEASE}: check exited 1, update exited 0" in proc.stdout
    assert f"running: jax {RELEASE} jaxlib {RELEASE}" in (out / "versions.txt").read_text()
    report = (out / "report.txt").read_text()
    assert "DRIFTED (text): page docs/second.md" in report
    assert "+second output" in (out / "golden.diff").read_text()
    summary = json.loads((out / "summary.json").read_text())
    assert "tests/golden/second/moves.txt" in summary["changed_files"]
    # The update records the versions it ran under: the real other release.
    assert f"tests/golden/{VERSIONS_FILE}" in summary["changed_files"]
    assert f"+jax: {RELEASE}" in (out / "golden.diff").read_text()
    assert site.goldens() == golden_before


def test_drift_watch_needs_a_release():
    proc = subprocess.run(
        [str(REPO / "book"), "drift-watch"], cwd=REPO, capture_output=True, text=True, timeout=600
    )
    assert proc.returncode == 2
    assert "drift-watch needs --jax X.Y.Z" in proc.stderr


# -- real upgrades --------------------------------------------------------------------------


def other_jax(checkout: Path, version: str) -> Path:
    """The venv with `version` in place of the pin, as `./book jax-venv` names it to a person
    (made by the checkout's drift watch already: the command finds it and says where)."""
    proc = subprocess.run(
        ["./book", "jax-venv", version],
        cwd=checkout,
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return checkout / proc.stdout.strip().splitlines()[-1] / "bin"


def run(venv_bin: Path, book: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    environ = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "BOOK_CACHE": "off", **env}
    return subprocess.run(
        [str(venv_bin / args[0]), *args[1:]],
        cwd=book,
        env=environ,
        capture_output=True,
        text=True,
        timeout=1800,
        stdin=subprocess.DEVNULL,
    )


def _git(book: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=book, capture_output=True, text=True, check=True
    ).stdout


# The chapters the real upgrade runs, with their labs: each has blocks whose output JAX 0.11.2
# changes and blocks it leaves alone, so the check has drift to name and blocks to pass. The
# whole book under older releases is `./book jax-changes`'s, whose records the build checks.
SMALL = ("tracers", "retracing")


def small_copy(book: Path) -> None:
    """Cut the scratch copy down to the SMALL chapters and their labs (`conftest.cut_book`),
    committed as the book before the upgrade."""
    cut_book(book, SMALL)
    _git(book, "add", "-A")
    _git(book, "commit", "-q", "-m", "a few chapters of the book")


# One run of a few chapters under another JAX (the update), and two checks that read what it
# ran from the cache. One release: a second (0.10.2) added a quarter of the suite's time and no
# path the first does not take.
@pytest.mark.timeout(1800)
@pytest.mark.parametrize("version", [RELEASE])
def test_a_real_jax_upgrade_end_to_end(version, weekly_watch, tmp_path):
    """The maintainer's two commands under a real other release, over a small copy of the
    book (`small_copy`: chapters, labs, goldens and the book's own mkdocs.yml): the check names
    every drifted block, and the update rewrites exactly those goldens and VERSIONS, after
    which the check is green.

    The book runs once, in the update: an update stores what it ran in the block cache (it
    never reads it), so both checks judge the update's outputs, made under this JAX, without
    running the book again. The first judges them against the goldens as they were before
    the update, as the maintainer's check before the update would (the same outputs: the cache
    key covers the code, the environment and every installed version).

    Its JAX is the venv `./book drift-watch --jax RELEASE` made for the weekly workflow's run
    (`weekly_watch`): `./book`'s own venv of that release, made once for both."""
    site, made, _ = weekly_watch
    assert made.returncode == 0, (made.stdout + made.stderr)[-5000:]
    venv = other_jax(site.root, version)
    book = tmp_path / "book"
    scratch_copy(REPO, book)  # a fresh clone's files, committed
    small_copy(book)
    goldens = sorted(p for p in (book / "tests" / "golden").rglob("*.txt"))

    update = run(venv, book, "mkdocs", "build", "--strict", GOLDEN="update", BOOK_CACHE="on")
    assert update.returncode == 0, (update.stdout + update.stderr)[-5000:]
    said = update.stdout + update.stderr
    assert re.search(r"bookexec summary: \d+ blocks executed, 0 from cache", said), said[-3000:]
    changed = set(_git(book, "diff", "--name-only", "--", "tests/golden").splitlines())
    shutil.copytree(book / "tests" / "golden", tmp_path / "updated")
    _git(book, "checkout", "--quiet", "--", "tests/golden")  # the goldens as they were

    check = run(venv, book, "mkdocs", "build", "--strict", GOLDEN="check", BOOK_CACHE="on")
    out = check.stdout + check.stderr
    assert check.returncode != 0, out[-3000:]
    assert re.search(r"bookexec summary: 0 blocks executed, \d+ from cache", out), out[-3000:]
    errors = error_lines(out)
    # the version note comes first, once
    assert errors[0].startswith("ERROR   -  goldens written under jax 0.12.0.1"), errors[:3]
    assert f"running jax {version}" in errors[0]
    assert sum("goldens written under" in line for line in errors) == 1
    summary = re.search(
        r"golden check: (\d+) blocks checked, (\d+) failed, (\d+) drifted, (\d+) new, (\d+) stale",
        out,
    )
    assert summary, out[-3000:]
    checked, failed, drifted = (int(summary[i]) for i in (1, 2, 3))
    assert checked == len(goldens)  # every block accounted for
    assert failed == 0, "\n".join(errors)[:5000]
    assert 0 < drifted < checked / 2
    unchanged = int(re.search(r"(\d+) blocks unchanged", errors[0])[1])
    assert unchanged == checked - drifted
    named = set(
        re.findall(r"DRIFTED \(\w+\): (?:page|lab) docs/(\S+?), (?:block|cell) '([^']+)'", out)
    )
    assert len(named) == drifted
    # The update rewrote exactly the goldens the check names, and the versions.
    expected = {
        f"tests/golden/{Path(page).with_suffix('').as_posix()}/{block}.txt" for page, block in named
    }
    assert changed == expected | {f"tests/golden/{VERSIONS_FILE}"}

    review = run(venv, book, "python", "-m", "jaxbook.cli", "review", "--accept-cosmetic")
    assert review.returncode == 0, review.stdout + review.stderr
    shutil.rmtree(book / "tests" / "golden")  # the review's acceptances go
    shutil.copytree(tmp_path / "updated", book / "tests" / "golden")  # the update's, back
    assert set(_git(book, "diff", "--name-only", "--", "tests/golden").splitlines()) == changed
    again = run(venv, book, "mkdocs", "build", "--strict", GOLDEN="check", BOOK_CACHE="on")
    assert again.returncode == 0, (again.stdout + again.stderr)[-5000:]
    assert re.search(
        r"bookexec summary: 0 blocks executed, \d+ from cache", again.stdout + again.stderr
    )
    assert read_versions(book / "tests" / "golden").version("jax") == version
