"""The sharded workflow's own commands work (.github/workflows/sharded.yml, issue 57): its jobs
are read from the YAML and run here, step by step, on a fixture book, with SHARDS=3, as GitHub
would run them: the plan job's shard list makes the matrix, each shard's job runs in a fresh
copy of the checkout at the same path, its records uploaded under the artifact's name, and the
judge downloads them all and runs its strict build. The actions the jobs use (checkout, cache,
upload and download of artifacts) are played by small stand-ins below that do what each one's
inputs say; any other action, expression or condition fails the test, so a step this file
does not understand cannot pass unseen.

The judge's build passes on the book as its goldens say, and fails, naming the block, on a
drifted snippet; the times it saves under the engine's cache key are what the next run's
shards restore. A push to the default branch runs every block and saves the shards' block
cache; a pull request's shards restore it (the stand-in cache carries the files from one
simulated run to the next) and run only what changed, their records saying so."""

from __future__ import annotations

import fnmatch
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml
from test_sharded_run import PAGES, SNIPPETS, book, fixture_book, ok

from conftest import REPO

pytestmark = pytest.mark.build

WORKFLOW = REPO / ".github" / "workflows" / "sharded.yml"
SHARDS = 3
# The install step: the test runs in that install already (pip install -e hooks -e .).
INSTALL = "python -m pip install -e hooks -e ."
EXPRESSION = re.compile(r"\$\{\{\s*(.+?)\s*\}\}")
# A condition's one kind of term this test reads: `X == 'text'` or `!=`, X a context's value
# or hashFiles('glob'); terms joined by `&&`, and `always()`.
COMPARISON = re.compile(
    r"(?P<left>[\w.]+|hashFiles\('(?P<glob>[^']+)'\)) (?P<op>[=!]=) '(?P<right>[^']*)'"
)
DEFAULT_BRANCH = "main"
PUSH = {"event_name": "push", "ref_name": DEFAULT_BRANCH}
PULL_REQUEST = {"event_name": "pull_request", "ref_name": "7/merge"}
# The variables a workflow's step would not have here: the suite's own settings.
UNSET = ("GOLDEN", "GOLDEN_ONLY", "BOOK_CACHE", "BOOK_RECORDS", "GITHUB_ACTIONS")


def jobs() -> dict[str, Any]:
    workflow = yaml.safe_load(WORKFLOW.read_text())
    return {"env": workflow["env"], **workflow["jobs"]}


def lookup(path: str, context: dict[str, Any], text: str) -> str:
    """A context's value, such as `needs.plan.outputs.blocks`; any other fails the test."""
    found: Any = context
    for part in path.split("."):
        assert isinstance(found, dict) and part in found, (
            f"{WORKFLOW.name}: this test cannot evaluate ${{{{ {path} }}}} in {text!r}"
        )
        found = found[part]
    return str(found)


def expand(text: str, context: dict[str, Any]) -> str:
    """Every `${{ a.b.c }}` in `text`, from `context`; any other expression fails the test."""
    return EXPRESSION.sub(lambda match: lookup(match[1], context, text), text)


@dataclass
class Runner:
    """GitHub, as far as the sharded workflow needs it: one checkout path for every job, the
    artifacts of this run, and the cache, which outlives runs."""

    base: Path
    template: Path  # the repository: a checkout copies it
    checkout: Path  # where every job's checkout is, as on GitHub's runners
    cache: dict[str, dict[str, bytes]] = field(default_factory=dict)  # by key, oldest first
    restored: list[str] = field(default_factory=list)  # the keys each restore found

    @property
    def artifacts(self) -> Path:
        return self.base / "artifacts"

    def run(self, run_id: int, event: dict[str, str]) -> dict[str, Job]:
        """The workflow on this event (PUSH, PULL_REQUEST), one job after the other (the
        shards in turn): each job's result, by name."""
        defined = jobs()
        env = {**defined["env"], "SHARDS": str(SHARDS)}
        github = {"run_id": str(run_id), "run_attempt": "1", **event}
        github["event"] = {"repository": {"default_branch": DEFAULT_BRANCH}}
        shutil.rmtree(self.artifacts, ignore_errors=True)
        plan = Job(self, defined["plan"], {"env": env, "github": github}).play()
        assert plan.ok, plan.said
        matrix = defined["run"]["strategy"]["matrix"]
        assert matrix == {"shard": "${{ fromJSON(needs.plan.outputs.shards) }}"}, matrix
        shards = json.loads(plan.outputs["shards"])
        assert shards == list(range(1, SHARDS + 1)), shards
        done = {"plan": plan}
        needs: dict[str, Any] = {"plan": {"outputs": plan.outputs}}
        for shard in shards:
            context = {"env": env, "github": github, "needs": needs, "matrix": {"shard": shard}}
            done[f"run {shard}"] = Job(self, defined["run"], context).play()
        assert all(job.ok for job in done.values()), [job.said for job in done.values()]
        # A matrix job's outputs are its last shard's, as GitHub's are.
        needs = {**needs, "run": {"outputs": done[f"run {shards[-1]}"].outputs}}
        for name in ("judge", "blocks"):
            job = Job(self, defined[name], {"env": env, "github": github, "needs": needs})
            if job.holds(defined[name].get("if")):
                done[name] = job.play()
        return done

    def fresh_checkout(self) -> None:
        shutil.rmtree(self.checkout, ignore_errors=True)
        shutil.copytree(self.template, self.checkout, symlinks=True)


@dataclass
class Job:
    """One job's steps in a fresh checkout: `run` steps in bash as GitHub runs them, the
    actions by the stand-ins, `if:` as GitHub reads it (after a failure, `always()` only)."""

    runner: Runner
    job: dict[str, Any]
    context: dict[str, Any]
    ok: bool = True
    said: str = ""
    outputs: dict[str, str] = field(default_factory=dict)  # the job's, from its steps'
    steps: dict[str, Any] = field(default_factory=dict)  # each step's outputs, by id
    results: list[subprocess.CompletedProcess[str]] = field(default_factory=list)

    def play(self) -> Job:
        self.runner.fresh_checkout()
        for step in self.job["steps"]:
            if self._wanted(step):
                self._step(step)
        context = {**self.context, "steps": self.steps}
        self.outputs = {k: expand(v, context) for k, v in self.job.get("outputs", {}).items()}
        return self

    def _wanted(self, step: dict[str, Any]) -> bool:
        return self.holds(step.get("if"))

    def holds(self, condition: str | None) -> bool:
        """An `if:` as GitHub reads it: after a failure, only with `always()`."""
        terms = [term.strip() for term in (condition or "").split("&&") if term.strip()]
        if "always()" not in terms and not self.ok:
            return False
        return all(term == "always()" or self._term(term) for term in terms)

    def _term(self, term: str) -> bool:
        found = COMPARISON.fullmatch(term)
        assert found, f"{WORKFLOW.name}: this test cannot evaluate if: {term}"
        if found["glob"]:  # hashFiles: '' when no file matches
            matched = [p for p in self.runner.checkout.glob(found["glob"]) if p.is_file()]
            value = "a digest" if matched else ""
        else:
            value = lookup(found["left"], self._context(), term)
        return (value == found["right"]) == (found["op"] == "==")

    def _context(self) -> dict[str, Any]:
        return {**self.context, "steps": self.steps}

    def _step(self, step: dict[str, Any]) -> None:
        if "run" in step:
            self._shell(step)
            return
        action, _, _ = step["uses"].partition("@")
        given = {name: expand(str(v), self._context()) for name, v in step.get("with", {}).items()}
        stand_in = ACTIONS.get(action)
        assert stand_in, f"{WORKFLOW.name}: this test has no stand-in for {action}"
        stand_in(self, given)

    def _shell(self, step: dict[str, Any]) -> None:
        command = step["run"].strip()
        if command == INSTALL:
            return
        outputs = self.runner.base / "github-output"
        outputs.write_text("")
        environ = {k: v for k, v in os.environ.items() if k not in UNSET}
        # setup-python's Python first on PATH, as on the runner: `book` is this install's.
        environ["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), environ["PATH"]])
        for values in (self.context["env"], self.job.get("env", {}), step.get("env", {})):
            environ.update({k: expand(str(v), self._context()) for k, v in values.items()})
        environ["GITHUB_OUTPUT"] = str(outputs)
        done = subprocess.run(
            [
                "bash",
                "--noprofile",
                "--norc",
                "-eo",
                "pipefail",
                "-c",
                expand(command, self._context()),
            ],
            cwd=self.runner.checkout,
            env=environ,
            capture_output=True,
            text=True,
            timeout=600,
        )
        self.results.append(done)
        if done.returncode:
            self.ok = False
            self.said += f"{step.get('name', command)}: exit {done.returncode}\n{done.stderr}"
        if "id" in step:
            lines = outputs.read_text().splitlines()
            self.steps[step["id"]] = {"outputs": dict(line.split("=", 1) for line in lines)}

    def build(self) -> subprocess.CompletedProcess[str]:
        """The judge's strict build: its step's result."""
        return next(r for r in self.results if "records" in r.args[-1] and "build" in r.args[-1])


def _checkout(job: Job, given: dict[str, str]) -> None:
    """The job started in a fresh checkout already (`Job.play`)."""


def _setup_python(job: Job, given: dict[str, str]) -> None:
    """The test's Python is the one the job would set up: nothing to do."""
    assert given["python-version-file"] == ".python-version"


def _paths(given: dict[str, str]) -> list[str]:
    return [line.strip() for line in given["path"].splitlines() if line.strip()]


def _restore(job: Job, given: dict[str, str]) -> None:
    """The cache under the exact key, else the newest whose key starts with a restore key."""
    cache = job.runner.cache
    found = given["key"] if given["key"] in cache else None
    for prefix in filter(None, given.get("restore-keys", "").splitlines()):
        found = found or next((k for k in reversed(cache) if k.startswith(prefix.strip())), None)
    job.runner.restored.append(found or "")
    wanted = _paths(given)
    for name in cache[found] if found else {}:  # GitHub restores only under the saved paths
        assert any(name == p or name.startswith(p.rstrip("/") + "/") for p in wanted), name
    for name, data in (cache[found] if found else {}).items():
        (job.runner.checkout / name).parent.mkdir(parents=True, exist_ok=True)
        (job.runner.checkout / name).write_bytes(data)


def _save(job: Job, given: dict[str, str]) -> None:
    files: dict[str, bytes] = {}
    for path in _paths(given):
        found = job.runner.checkout / path
        for file in [found] if found.is_file() else sorted(found.rglob("*")):
            if file.is_file():
                files[file.relative_to(job.runner.checkout).as_posix()] = file.read_bytes()
    assert given["key"] not in job.runner.cache, f"a cache key is saved once: {given['key']}"
    job.runner.cache[given["key"]] = files


def _upload(job: Job, given: dict[str, str]) -> None:
    source = job.runner.checkout / given["path"]
    found = source.is_dir() and any(source.iterdir())
    # Since upload-artifact v4.4 a path with a part that starts with a dot is left out.
    hidden = any(part.startswith(".") for part in Path(given["path"]).parts)
    if hidden and given.get("include-hidden-files", "").lower() != "true":
        found = False
    if not found:
        if given.get("if-no-files-found") == "error":
            job.ok = False
            job.said += f"upload {given['name']}: no files found at {given['path']}\n"
        return
    shutil.copytree(source, job.runner.artifacts / given["name"])


def _download(job: Job, given: dict[str, str]) -> None:
    into = job.runner.checkout / given["path"]
    for artifact in sorted(job.runner.artifacts.iterdir()) if job.runner.artifacts.is_dir() else []:
        if fnmatch.fnmatch(artifact.name, given["pattern"]):
            merged = given.get("merge-multiple", "").lower() == "true"  # YAML's true: "True"
            shutil.copytree(artifact, into if merged else into / artifact.name, dirs_exist_ok=True)


ACTIONS = {
    "actions/checkout": _checkout,
    "actions/setup-python": _setup_python,
    "actions/cache/restore": _restore,
    "actions/cache/save": _save,
    "actions/upload-artifact": _upload,
    "actions/download-artifact": _download,
}


@pytest.fixture(scope="module")
def first(tmp_path_factory) -> tuple[Runner, dict[str, Job]]:
    """The fixture book, its goldens written by `book update` (then its caches dropped, as a
    clone has none), and the workflow's first run on it: a push to the default branch."""
    base = tmp_path_factory.mktemp("workflow")
    site = fixture_book(base / "repository")
    ok(book(site.root, "update"))
    for ignored in (".cache", "site"):
        shutil.rmtree(site.root / ignored, ignore_errors=True)
    runner = Runner(base, site.root, base / "checkout")
    return runner, runner.run(run_id=1, event=PUSH)


def engine_key(runner: Runner) -> str:
    """The engine's cache key: the digest of the environment the first run's records hold."""
    record = json.loads(next(runner.artifacts.rglob("shard-1-of-3.json")).read_text())
    return hashlib.sha256(record["environment"].encode()).hexdigest()


def cached_blocks(runner: Runner) -> dict[str, bool]:
    """Whether each block of this run's records came from the block cache, by page#id."""
    found = {}
    for path in sorted(runner.artifacts.rglob(f"shard-*-of-{SHARDS}.json")):
        for page, entry in json.loads(path.read_text())["pages"].items():
            found |= {f"{page}#{block['id']}": block["cached"] for block in entry["blocks"]}
    return found


def next_run(runner: Runner, base: Path) -> Runner:
    """A later run of the same repository: its copy under `base` (for a test to change), the
    same checkout path (the engine's key holds it: the same on every GitHub runner), and the
    caches the first run saved."""
    later = Runner(base, base / "repository", runner.checkout, dict(runner.cache))
    shutil.copytree(runner.template, later.template, symlinks=True)
    return later


def test_the_workflows_judge_passes_over_its_shards_records(first):
    runner, done = first
    judge = done["judge"]
    assert judge.ok, judge.said
    built = judge.build()
    assert f"records of {SHARDS} shards" in built.stderr, built.stderr
    assert "from the shards' records" in built.stderr, built.stderr
    uploaded = sorted(
        p.relative_to(runner.artifacts).as_posix()
        for p in runner.artifacts.rglob("*.json")
        if p.name.startswith("shard-")
    )
    assert uploaded == [f"records-{i}-of-{SHARDS}/shard-{i}-of-{SHARDS}.json" for i in (1, 2, 3)]
    # The cache keys are the engine's: the digest of the environment the records hold.
    key = engine_key(runner)
    assert list(runner.cache) == [f"book-{key}-1-1", f"blocks-{key}-1-1"], list(runner.cache)
    assert ".cache/bookexec/run-times.json" in runner.cache[f"book-{key}-1-1"]
    # A push to the default branch: every block ran, and every shard's entries were saved.
    ran = cached_blocks(runner)
    assert len(ran) == len(SNIPPETS) and not any(ran.values()), ran
    entries = runner.cache[f"blocks-{key}-1-1"]
    assert entries and all(name.startswith(".cache/bookexec/blocks/") for name in entries)
    for page in PAGES:  # the whole book's, from its three shards
        assert any(f"/{page}__" in name for name in entries), (page, list(entries))


def test_a_pull_request_takes_the_default_branchs_block_cache(first, tmp_path):
    runner, _ = first
    request = next_run(runner, tmp_path)
    done = request.run(run_id=2, event=PULL_REQUEST)
    key = engine_key(runner)
    # Each shard restored the times and the block cache of the push; the judge, the times.
    assert request.restored == [f"book-{key}-1-1", f"blocks-{key}-1-1"] * SHARDS + [
        f"book-{key}-1-1"
    ], request.restored
    ran = cached_blocks(request)
    assert len(ran) == len(SNIPPETS) and all(ran.values()), f"a block ran again: {ran}"
    judge = done["judge"]
    assert judge.ok, judge.said
    built = judge.build()
    assert f"{len(SNIPPETS)} from the shards' records ({len(SNIPPETS)} from the block cache)" in (
        built.stderr
    ), built.stderr
    assert "blocks" not in done, "a pull request saves no block cache"
    assert sorted(request.cache) == sorted([*runner.cache, f"book-{key}-2-1"])


def test_a_pull_requests_judge_fails_on_drift_and_the_next_run_restores_the_times(first, tmp_path):
    runner, _ = first
    drifted = next_run(runner, tmp_path)
    snippet = drifted.template / "snippets" / "a" / "double.py"
    snippet.write_text(SNIPPETS["a/double.py"].replace("*", "+"))
    done = drifted.run(run_id=2, event=PULL_REQUEST)
    judge = done["judge"]
    assert not judge.ok, "the judge passed over a drifted snippet"
    built = judge.build()
    assert built.returncode != 0 and "double" in built.stderr, built.stderr
    assert "refused" not in built.stderr, built.stderr
    # The changed block ran again, and the blocks after it in its page's session.
    ran = cached_blocks(drifted)
    assert [block for block, cached in ran.items() if not cached] == [
        "a.md#double",
        "a.md#count",
    ], ran
    # Every shard and the judge found the first run's times; the judge saved this run's.
    assert drifted.restored[-1] == f"book-{engine_key(runner)}-1-1", drifted.restored
    assert len(drifted.cache) == len(runner.cache) + 1
