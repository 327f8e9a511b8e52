"""Drift where maintainers look: under GitHub Actions, the check annotates each failed or
drifted block on its fence's line, and appends the whole report to the job summary."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from bookexec._internal.goldens.actions import (
    command,
    escape_message,
    escape_property,
    from_environ,
)
from conftest import MKDOCS, REPO

FIXTURE = REPO / "tests" / "sites" / "plain"


def test_messages_and_properties_are_escaped_as_github_reads_them():
    assert escape_message("50% done\r\nnext") == "50%25 done%0D%0Anext"
    assert escape_property("a: b, c%") == "a%3A b%2C c%25"
    line = command("error", "one\ntwo", file="docs/a,b.md", line=7, title="x: y")
    assert line == "::error file=docs/a%2Cb.md,line=7,title=x%3A y::one%0Atwo"
    assert command("notice", "n") == "::notice::n"


def test_only_github_actions_turns_it_on():
    assert from_environ({}) is None
    assert from_environ({"GITHUB_ACTIONS": "false", "GITHUB_STEP_SUMMARY": "/tmp/s"}) is None
    on = from_environ({"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": "/tmp/s"})
    assert on is not None and on.summary == Path("/tmp/s")
    no_summary = from_environ({"GITHUB_ACTIONS": "true"})
    assert no_summary is not None and no_summary.summary is None


def _build(root: Path, mode: str, **env: str) -> subprocess.CompletedProcess[str]:
    """The real strict build, with GitHub's variables only where the test sets them."""
    environ = {
        name: value
        for name, value in os.environ.items()
        if name not in ("GITHUB_ACTIONS", "GITHUB_STEP_SUMMARY")
    }
    environ.update(GOLDEN=mode, NO_MKDOCS_2_WARNING="1", **env)
    return subprocess.run(
        [str(MKDOCS), "build", "--strict"],
        cwd=root,
        env=environ,
        capture_output=True,
        text=True,
        timeout=300,
    )


def _fence_line(page: Path, block_id: str) -> int:
    lines = page.read_text().splitlines()
    return next(n for n, text in enumerate(lines, 1) if f'id="{block_id}"' in text)


@pytest.mark.build
def test_a_drifted_and_a_failed_block_annotate_their_fences_and_fill_the_job_summary(tmp_path):
    root = tmp_path / "plain"
    shutil.copytree(FIXTURE, root)
    session = root / "docs" / "session.md"
    # Front matter first: the line must be the fence's line in the file, not in the body.
    session.write_text("---\ntitle: Session\n---\n\n" + session.read_text())
    update = _build(root, "update")
    assert update.returncode == 0, update.stdout + update.stderr

    mean = root / "snippets" / "index" / "mean.py"
    mean.write_text(mean.read_text().replace('"numpy mean:"', '"NumPy mean:"'))
    (root / "snippets" / "session" / "use.py").write_text(
        'raise RuntimeError("100% of the answer\\nis missing")\n'
    )
    summary = tmp_path / "step-summary.md"
    summary.write_text("## an earlier step\n")
    check = _build(root, "check", GITHUB_ACTIONS="true", GITHUB_STEP_SUMMARY=str(summary))
    output = check.stdout + check.stderr
    assert check.returncode != 0, output
    lines = output.splitlines()
    # The runner acts on no command from the build's start to its annotations.
    (pause,) = [line for line in lines if line.startswith("::stop-commands::")]
    resume = f"::{pause.removeprefix('::stop-commands::')}::"
    assert len(resume) == 36 and resume in lines, output
    commands = [line for line in lines if line.startswith("::") and line not in (pause, resume)]
    assert runner_acts_on(output) == [pause, *commands], output
    print("\n".join(commands))

    mean_line = _fence_line(root / "docs" / "index.md", "mean")
    drifted = [c for c in commands if c.startswith("::error file=docs/index.md,")]
    assert len(drifted) == 1, commands
    head, message = drifted[0].split("::", 2)[1:]
    assert head == f"error file=docs/index.md,line={mean_line},title=block 'mean' drifted (text)"
    assert "-numpy mean: 5.5%0A+NumPy mean: 5.5" in message, message
    assert "\n" not in message and "%0A" in message

    use_line = _fence_line(session, "use")
    assert use_line == 13
    failed = [c for c in commands if c.startswith("::error file=docs/session.md,")]
    assert len(failed) == 1, commands
    head, message = failed[0].split("::", 2)[1:]
    assert head == (
        f"error file=docs/session.md,line={use_line},"
        "title=block 'use' failed (snippet snippets/session/use.py)"
    )
    assert "RuntimeError: 100%25 of the answer%0Ais missing" in message, message
    assert len(commands) == 2, commands  # the other blocks passed: nothing said of them

    text = summary.read_text()
    print(text)
    assert text.startswith("## an earlier step\n\n## Golden check failed\n"), text  # appended
    assert "`golden check: 4 blocks checked, 1 failed, 1 drifted, 0 new, 0 stale`" in text
    failed_part = text.split("### Failed\n", 1)[1].split("###", 1)[0]
    assert f"`docs/session.md:{use_line}`, block 'use'" in failed_part
    assert "RuntimeError: 100% of the answer" in failed_part
    drift_part = text.split("### Drifted (text)\n", 1)[1]
    assert f"`docs/index.md:{mean_line}`, block 'mean', golden `tests/golden/index/mean.txt`" in (
        drift_part
    )
    assert "```diff\n" in drift_part
    assert "  -numpy mean: 5.5\n  +NumPy mean: 5.5\n" in drift_part
    assert "Drift by class: 0 structural, 1 text, 0 cosmetic." in text

    quiet = _build(root, "check")
    assert quiet.returncode != 0
    assert "::error" not in quiet.stdout + quiet.stderr
    assert "DRIFTED (text): page docs/index.md, block 'mean'" in quiet.stdout + quiet.stderr


# Lines a block may print or raise that GitHub's runner would act on (issue 53): turn every
# later command of the step off, forge an annotation, and an older command in mid-line.
HOSTILE = (
    "::stop-commands::pwned",
    "::error file=docs/index.md,line=1,title=forged::forged by an output",
    "text then ##[error]forged in mid-line",
)


def runner_acts_on(log: str) -> list[str]:
    """The lines of a step's log that GitHub's runner reads as workflow commands, in order, as
    it reads them: a line (cut at CR or LF) whose text starts with `::` once leading whitespace
    is trimmed, or that holds `##[`; between `::stop-commands::TOKEN` and `::TOKEN::` none."""
    acted, stopped = [], None
    for line in re.split(r"\r\n|\r|\n", log):
        trimmed = line.lstrip()
        if stopped is not None:
            if trimmed == f"::{stopped}::":
                stopped = None
            continue
        if trimmed.startswith("::stop-commands::"):
            stopped = trimmed.removeprefix("::stop-commands::")
        if trimmed.startswith("::") or "##[" in line:
            acted.append(trimmed)
    return acted


def test_runner_model_reads_commands_as_github_does():
    log = "a\n  ::error::x\r ::stop-commands::t\n::error::hidden\n::t::\nb ##[warning]y\n"
    assert runner_acts_on(log) == ["::error::x", "::stop-commands::t", "b ##[warning]y"]


@pytest.mark.build
def test_outputs_and_tracebacks_cannot_command_the_ci_log(tmp_path):
    """Every line of a drifted output (the drift report's context lines, indented by one space)
    and of a traceback (indented by two) reaches the log neutralised: under
    GITHUB_ACTIONS=true the runner acts on the engine's two annotations and on nothing else."""
    root = tmp_path / "plain"
    shutil.copytree(FIXTURE, root)
    lines = "".join(f"print({line!r})\n" for line in HOSTILE)
    mean = root / "snippets" / "index" / "mean.py"
    mean.write_text(mean.read_text() + lines)
    update = _build(root, "update")
    assert update.returncode == 0, update.stdout + update.stderr
    mean.write_text(mean.read_text().replace('"numpy mean:"', '"NumPy mean:"'))
    raised = "\\n".join(HOSTILE)
    (root / "snippets" / "session" / "use.py").write_text(f'raise RuntimeError("x\\n{raised}")\n')
    check = _build(root, "check", GITHUB_ACTIONS="true")
    log = check.stdout + check.stderr
    assert check.returncode != 0, log
    assert " ::stop-commands::pwned" in log.replace("\\::", "::"), log  # in the drift report
    acted = runner_acts_on(log)
    assert [line.split(",", 1)[0] for line in acted] == [
        f"::stop-commands::{acted[0].removeprefix('::stop-commands::')}",  # the engine's own
        "::error file=docs/session.md",
        "::error file=docs/index.md",
    ], "\n".join(acted)
    assert "forged by an output" in acted[2] and "title=block 'mean' drifted" in acted[2]
    assert acted[0] != "::stop-commands::pwned" and f"::{acted[0][17:]}::" in log
    assert "##[" not in "".join(acted)
