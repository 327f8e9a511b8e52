"""The check's report where a maintainer looks under GitHub Actions.

Each failed, drifted or new block becomes an `::error` workflow command on the line of its
fence, so GitHub shows it on the Markdown in the pull request's diff and the run's summary;
the whole report (the version note, failures, diffs by class) is appended to the job summary,
the Markdown file `$GITHUB_STEP_SUMMARY` names. Nothing here runs outside GitHub Actions.

GitHub keeps only the first 10 error annotations of a step: the job summary has all of them.
"""

from __future__ import annotations

import re
import secrets
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from bookexec._internal.escapes import terminal, workflow_safe
from bookexec._internal.goldens.compare import COSMETIC, STRUCTURAL, TEXT, Comparison
from bookexec._internal.goldens.report import Failure, Report
from bookexec._internal.goldens.store import BUILDERS, VERSIONS_FILE, relative, update_command
from bookexec._internal.logs import guard_ci_log

# A diff this long is cut in the annotation; the job summary has all of it.
MESSAGE_LIMIT = 4000
# A page-level failure (the prose audit, a worker) names its place as "<docs>/<page>:<line>: ",
# `<docs>` the book's docs_dir as messages name it (`Failure.docs`).
_PLACE = r"^{docs}/(?P<page>[^\s:]+):(?P<line>\d+)\b"

# (page, block id) -> the 1-based line of the block's fence in the page, None if unknown
FenceLine = Callable[[str, str], int | None]


@dataclass
class Actions:
    """Running under GitHub Actions, and where its job summary goes (None: no summary)."""

    summary: Path | None
    # The token of the engine's own `::stop-commands::` while the runner acts on no command
    # (`pause`); "" when it acts on them.
    paused: str = ""


def _stdout(line: str) -> None:
    """A workflow command for GitHub's runner: a line of its own on stdout, never a log record
    (MkDocs' log prefixes its level, and the runner reads only lines that begin with `::`)."""
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def pause(actions: Actions, say: Callable[[str], None] = _stdout) -> None:
    """From the build's start to its annotations the runner acts on no command at all, behind
    a token no output can know (a random one, never written anywhere but this line): should a
    line escape the log's neutralising (`logs.WorkflowSafe`), it still cannot stop, forge or
    hide a command."""
    if not actions.paused:
        actions.paused = secrets.token_hex(16)
        say(f"::stop-commands::{actions.paused}")


def resume(actions: Actions | None, say: Callable[[str], None] = _stdout) -> None:
    """The runner acts on commands again (the annotations, and whatever the step runs next)."""
    if actions is not None and actions.paused:
        token, actions.paused = actions.paused, ""
        say(f"::{token}::")


def from_environ(environ: Mapping[str, str]) -> Actions | None:
    """GitHub sets GITHUB_ACTIONS=true in every step and GITHUB_STEP_SUMMARY to the step's
    summary file; None anywhere else, so a local build prints no workflow command."""
    if environ.get("GITHUB_ACTIONS") != "true":
        return None
    summary = environ.get("GITHUB_STEP_SUMMARY") or None
    return Actions(Path(summary) if summary else None)


def escape_message(text: str) -> str:
    """A workflow command's message, as GitHub reads it back: one line, % first; and no `##[`
    that an older runner would read as a command of its own (`escapes.workflow_safe`)."""
    return workflow_safe(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A property value (file, title) also ends at ',' and its name at ':'."""
    return escape_message(text).replace(":", "%3A").replace(",", "%2C")


def command(
    kind: str, message: str, file: str | None = None, line: int | None = None, title: str = ""
) -> str:
    """One workflow command line: `::error file=docs/x.md,line=N,title=...::message`."""
    props = [f"file={escape_property(file)}"] if file else []
    if file and line:
        props.append(f"line={line}")
    if title:
        props.append(f"title={escape_property(title)}")
    head = f"{kind} {','.join(props)}" if props else kind
    return f"::{head}::{escape_message(terminal(message))}"  # the log is a terminal too


def _cut(text: str) -> str:
    if len(text) <= MESSAGE_LIMIT:
        return text
    return text[:MESSAGE_LIMIT].rstrip() + "\n... (cut: the job summary has the whole diff)"


def _what(page: str, block_id: str) -> str:
    return f"cell '{block_id}'" if page.endswith(".ipynb") else f"block '{block_id}'"


def commands(report: Report, fence_line: FenceLine) -> list[str]:
    """The report as workflow commands, most serious first: failures, drift, new, stale."""
    root = report.root
    out: list[str] = []
    note = report.version_note()
    if note:
        out.append(command("notice", note, title="goldens written under other versions"))
    problem = report.versions_problem()
    if problem:
        versions = relative(report.golden_dir / VERSIONS_FILE, root)
        out.append(command("error", problem, file=versions, title="VERSIONS"))
    for failure in report.failures:
        out.append(_failure(failure, fence_line))
    drifted = [c for c in report.comparisons if c.status == "drifted"]
    for kind in (STRUCTURAL, TEXT, COSMETIC):
        out += [_drifted(c, fence_line, root) for c in drifted if c.kind == kind]
    for c in report.comparisons:
        if c.status == "new":
            reasons = "".join(f"\n{n}" for n in c.notes())
            message = f"no golden yet ({relative(c.path, root)}); run GOLDEN=update to write it"
            out.append(
                command(
                    "error",
                    message + reasons,
                    file=f"{c.docs}/{c.page}",
                    line=_line(c.page, c.block_id, fence_line),
                    title=f"{_what(c.page, c.block_id)}: new, no golden",
                )
            )
    for path in report.stale:
        out.append(
            command(
                "error",
                "this golden has no block in the book; GOLDEN=update deletes it",
                file=relative(path, root),
                title="stale golden",
            )
        )
    return out


def _line(page: str, block_id: str, fence_line: FenceLine) -> int | None:
    # A lab's blocks are cells: a notebook has no Markdown line to point at.
    return None if page.endswith(".ipynb") else fence_line(page, block_id)


def _failure(failure: Failure, fence_line: FenceLine) -> str:
    if failure.block_id:
        cause = (
            f"(block '{failure.after}' failed earlier in this page's session; this may follow "
            "from it)\n"
            if failure.after
            else ""
        )
        return command(
            "error",
            cause + failure.message,
            file=f"{failure.docs}/{failure.page}",
            line=_line(failure.page, failure.block_id, fence_line),
            title=f"{_what(failure.page, failure.block_id)} failed (snippet {failure.snippet})",
        )
    docs = failure.docs
    place = re.match(_PLACE.format(docs=re.escape(docs)), failure.message)
    if place:
        return command(
            "error", failure.message, f"{docs}/{place['page']}", int(place["line"]), "failed"
        )
    file = f"{docs}/{failure.page}" if failure.page else None
    return command("error", failure.message, file=file, title="failed")


def _drifted(c: Comparison, fence_line: FenceLine, root: Path) -> str:
    drift = c.drift()
    aligned = f"\n{drift.diff}" if drift and drift.diff else ""
    body = "\n".join(c.notes()) + aligned + "\n" + c.diff(root).rstrip()
    return command(
        "error",
        _cut(body),
        file=f"{c.docs}/{c.page}",
        line=_line(c.page, c.block_id, fence_line),
        title=f"{_what(c.page, c.block_id)} drifted ({c.kind})",
    )


def _fenced(text: str, language: str = "text") -> str:
    """`text` in a fence longer than any run of backticks it holds."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{language}\n{text.rstrip()}\n{fence}\n"


def summary_markdown(report: Report, fence_line: FenceLine) -> str:
    """The job summary: the verdict, the version note, then every problem with its diff."""
    verdict = "failed" if report.failed else "passed"
    # A blank line first: the summary file may hold an earlier step's Markdown.
    out = [f"\n## Golden check {verdict}\n", f"`{report.summary()}`\n"]
    note = report.version_note()
    if note:
        out.append(f"**Versions:** {note}\n")
    problem = report.versions_problem()
    if problem:
        out.append(f"**{problem}**\n")
    out += _failed_section(report, fence_line)
    out += _drifted_sections(report, fence_line)
    out += _new_and_stale_sections(report, fence_line)
    out += _closing_sections(report)
    return "\n".join(out) + "\n"


def _place(docs: str, page: str, block_id: str, fence_line: FenceLine) -> str:
    """A block's page and fence line, as code: where the author looks."""
    line = _line(page, block_id, fence_line)
    return f"`{docs}/{page}:{line}`" if line else f"`{docs}/{page}`"


def _failed_section(report: Report, fence_line: FenceLine) -> list[str]:
    if not report.failures:
        return []
    out = ["### Failed\n"]
    for failure in report.failures:
        page, block_id, docs = failure.page, failure.block_id, failure.docs
        head = (
            f"- {_place(docs, page, block_id, fence_line)}, {_what(page, block_id)}, "
            f"snippet `{failure.snippet}`"
            if block_id
            else "- " + (f"`{docs}/{page}`" if page else "the build")
        )
        out.append(f"{head}\n\n{_indent(_fenced(failure.line()))}")
    return out


def _drifted_sections(report: Report, fence_line: FenceLine) -> list[str]:
    """One section a class of drift, structural first; each drift with its diff."""
    out = []
    drifted = [c for c in report.comparisons if c.status == "drifted"]
    for kind in (STRUCTURAL, TEXT, COSMETIC):
        of_kind = [c for c in drifted if c.kind == kind]
        if of_kind:
            out.append(f"### Drifted ({kind})\n")
            out += [_drifted_item(c, report.root, fence_line) for c in of_kind]
    return out


def _drifted_item(c: Comparison, root: Path, fence_line: FenceLine) -> str:
    drift = c.drift()
    notes = "".join(f"  {n}\n" for n in c.notes())  # the list item's own text
    aligned = _fenced(drift.diff) if drift and drift.diff else ""
    return (
        f"- {_place(c.docs, c.page, c.block_id, fence_line)}, {_what(c.page, c.block_id)}, "
        f"golden `{relative(c.path, root)}`\n\n{notes}\n"
        + _indent(aligned + _fenced(c.diff(root), "diff"))
    )


def _new_and_stale_sections(report: Report, fence_line: FenceLine) -> list[str]:
    out = []
    new = [c for c in report.comparisons if c.status == "new"]
    if new:
        out.append("### New (no golden yet: `GOLDEN=update` writes it)\n")
        out += [
            f"- {_place(c.docs, c.page, c.block_id, fence_line)}, {_what(c.page, c.block_id)}\n"
            for c in new
        ]
    if report.stale:
        out.append("### Stale (no block: `GOLDEN=update` deletes it)\n")
        out += [f"- `{relative(path, report.root)}`\n" for path in report.stale]
    return out


def _closing_sections(report: Report) -> list[str]:
    """The timings outside their band, and the drift by class with how to accept it."""
    out = []
    timing = report.timing_notes()
    if timing:
        out.append("### Timings outside their band (a note, never a failure)\n")
        out.append(_fenced("\n".join(timing)))
    kinds = report.kinds()
    if kinds:
        out.append(
            f"Drift by class: {kinds.count(STRUCTURAL)} structural, {kinds.count(TEXT)} text, "
            f"{kinds.count(COSMETIC)} cosmetic. To accept it: {_accept(report)}, then read "
            f"`git diff {relative(report.golden_dir, report.root)}`.\n"
        )
    return out


def _accept(report: Report) -> str:
    """The commands that accept drift: the book launcher's review and update where it has a
    launcher (`./book review` or `./book update`), else the builder's update."""
    launcher, update = report.launcher, f"`{update_command(report.launcher)}`"
    return f"`{launcher} review` or {update}" if launcher not in ("", *BUILDERS) else update


def _indent(text: str) -> str:
    """Nested under a list item ("- "): every line two spaces in."""
    return "".join(f"  {line}" if line.strip() else line for line in text.splitlines(True))


def publish(
    report: Report,
    actions: Actions | None,
    fence_line: FenceLine,
    say: Callable[[str], None] = _stdout,
) -> None:
    """Under GitHub Actions: let the runner act on commands again (`resume`), say each
    annotation (stdout, where the runner reads commands) and append the report to the job
    summary. Anywhere else: nothing."""
    if actions is None:
        return
    guard_ci_log()  # on the handlers made since the build began too
    resume(actions, say)
    for line in commands(report, fence_line):
        say(line)
    if actions.summary is not None:
        with actions.summary.open("a", encoding="utf-8") as summary:
            summary.write(summary_markdown(report, fence_line))
