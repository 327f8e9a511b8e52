"""Nothing private of the build machine reaches the site or the goldens.

The test plants one unique marker in every place a build could leak from: the checkout's
path, HOME, the temporary folder, the user name, the host name (in a UTS namespace of its
own, where the machine allows one) and an environment variable. A snippet prints all of
them, as an author might by accident; then the whole built site and the goldens are searched
for the marker, and for the real paths of this checkout and its Python.
"""

from __future__ import annotations

import gzip
import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from conftest import _CONFIG, MKDOCS, PLUGIN, REPO

pytestmark = pytest.mark.build

SNIPPET = """\
import getpass
import os
import platform
import socket
import sys
import tempfile

import jax

print("cwd:", os.getcwd())
print("home:", os.path.expanduser("~"))
print("user:", getpass.getuser())
print("host:", socket.gethostname(), platform.node())
print("tmp:", tempfile.gettempdir(), tempfile.mkdtemp())
print("python:", sys.executable, sys.prefix)
print("path:", sys.path)
print("modules:", os, jax)
print("secret:", os.environ.get("BOOK_PRIVATE_VALUE", "<not passed to snippets>"))
print("jax variable:", os.environ.get("JAX_PLATFORMS", "<not passed>"))
"""


def can_set_hostname() -> bool:
    if not shutil.which("unshare"):
        return False
    probe = subprocess.run(
        ["unshare", "-u", "sh", "-c", "hostname probe-name"], capture_output=True, timeout=30
    )
    return probe.returncode == 0


def everything_under(*folders: Path) -> dict[str, bytes]:
    """Every file's bytes, gzip files unpacked (the sitemap is one)."""
    found = {}
    for folder in folders:
        for path in folder.rglob("*"):
            if path.is_file():
                data = path.read_bytes()
                found[str(path)] = gzip.decompress(data) if path.suffix == ".gz" else data
    return found


@pytest.fixture
def marked_book(tmp_path):
    marker = f"mark{uuid.uuid4().hex[:12]}"
    root = tmp_path / f"checkout-{marker}" / "book"
    (root / "docs").mkdir(parents=True)
    # The real layout: the engine lives inside the checkout, as in the book's own repository
    # (PYTHONPATH below puts this copy before the installed one).
    shutil.copytree(REPO / "hooks", root / "hooks", ignore=shutil.ignore_patterns("__pycache__"))
    (root / "mkdocs.yml").write_text(_CONFIG.format(plugin=PLUGIN))
    (root / "docs" / "leak.md").write_text(
        '# Leak\n\n```python exec="on" id="leak"\n--8<-- "snippets/leak/leak.py"\n```\n'
    )
    (root / "snippets" / "leak").mkdir(parents=True)
    (root / "snippets" / "leak" / "leak.py").write_text(SNIPPET)
    home, temp = tmp_path / f"home-{marker}", tmp_path / f"tmp-{marker}"
    home.mkdir()
    temp.mkdir()
    env = {
        **os.environ,
        "GOLDEN": "update",
        "NO_MKDOCS_2_WARNING": "1",
        "HOME": str(home),
        "TMPDIR": str(temp),
        "USER": f"user{marker}",
        "LOGNAME": f"user{marker}",
        "BOOK_PRIVATE_VALUE": f"secret{marker}",
        "JAX_PLATFORMS": "cpu",
        "PYTHONPATH": str(root / "hooks"),
    }
    command = [str(MKDOCS), "build", "--strict"]
    if can_set_hostname():
        command = ["unshare", "-u", "sh", "-c", f'hostname "host{marker}" && exec "$@"', "-"]
        command += [str(MKDOCS), "build", "--strict"]
    proc = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return root, marker


def test_no_path_user_host_or_variable_of_the_machine_reaches_the_site(marked_book):
    root, marker = marked_book
    golden = (root / "tests" / "golden" / "leak" / "leak.txt").read_text()
    # The snippet ran and printed each thing, normalised.
    for line in (
        "cwd: <root>",
        "home: <home>",
        "secret: <not passed to snippets>",
        "jax variable: cpu",
    ):
        assert line in golden, golden
    if can_set_hostname():
        assert "host: <host> <host>" in golden, golden
    assert "python: <python>" in golden, golden

    files = everything_under(root / "site", root / "tests" / "golden")
    assert any(b"cwd: &lt;root&gt;" in data for data in files.values())  # the page shows it
    # The marker, and the real paths of this checkout, its Python and the real home.
    machine = {marker, str(REPO), sys.prefix, sys.base_prefix, os.path.expanduser("~")}
    for secret in sorted(machine):
        leaks = [name for name, data in files.items() if secret.encode() in data]
        assert leaks == [], f"{secret!r} is in {leaks}"


def test_snippets_get_only_the_variables_that_shape_python_and_jax():
    from bookexec._internal.privacy import worker_environment

    kept = worker_environment(
        {"PATH": "/bin", "JAX_ENABLE_X64": "1", "AWS_SECRET": "s", "USER": "alice"}
        | {"BOOK_SNIPPET_SEED": "3", "LC_ALL": "C.UTF-8", "GOLDEN": "update"}
    )
    assert kept == {
        "PATH": "/bin",
        "JAX_ENABLE_X64": "1",
        "BOOK_SNIPPET_SEED": "3",
        "LC_ALL": "C.UTF-8",
    }


def test_user_and_host_names_are_replaced_as_whole_words_and_public_ones_kept():
    from bookexec._internal.goldens.normalize import path_rules, paths
    from bookexec._internal.privacy import machine_names

    names = machine_names({"USER": "alice", "LOGNAME": "root"})
    assert names["alice"] == "<user>" and "root" not in names
    rules = path_rules(Path("/srv/book"), names={"alice": "<user>", "box-7": "<host>"})
    text = "user=alice on box-7 (alice's), not malice or box-77"
    assert paths(text, rules) == "user=<user> on <host> (<user>'s), not malice or box-77"


# -- issue 25: credentials of the build's environment never leave the build process -----------

FAKE_CREDENTIALS = {
    "GITHUB_TOKEN": "ghp_fakeTokenForTheBookTest0123456789",
    "AWS_SECRET_ACCESS_KEY": "fakeAwsSecretKey/For+The/BookTest0123",
    "NVIDIA_API_KEY": "nvapi-fake-key-for-the-book-test-0123",
    "PYTHON_KEYRING_TOKEN": "fake-keyring-token-for-the-book-0123",
    "BOOK_DB_PASSWORD": "fake-db-password-for-the-book-0123",
}

STEAL = """\
import os
import subprocess

from bookexec.facts import record

NAMES = {names!r}


def pairs(blob):
    for item in blob.split(b"\\0"):
        name, _, value = item.decode(errors="replace").partition("=")
        if name in NAMES:
            yield name, value


def environ_of(pid):
    try:
        with open(f"/proc/{{pid}}/environ", "rb") as handle:
            return handle.read()
    except OSError:
        return b""


found = set()
for name in NAMES:
    if name in os.environ:
        found.add(("os.environ", name, os.environ[name]))
found |= {{("/proc/self", *pair) for pair in pairs(environ_of("self"))}}
found |= {{("/proc/<parent>", *pair) for pair in pairs(environ_of(os.getppid()))}}
for pid in sorted(p for p in os.listdir("/proc") if p.isdigit()):
    found |= {{("/proc/<any>", *pair) for pair in pairs(environ_of(pid))}}
env = subprocess.run(["env", "-0"], capture_output=True).stdout
found |= {{("env", *pair) for pair in pairs(env)}}
for source, name, value in sorted(found):
    print(f"{{source}}: {{name}}={{value}}")
stolen = sorted(found)[0][2] if found else "nothing"
record("stolen", stolen)
"""

RAISE = """\
import os


def parent_environ():
    with open(f"/proc/{os.getppid()}/environ", "rb") as handle:
        return handle.read().decode(errors="replace")


raise RuntimeError("the environment: " + parent_environ().replace("\\0", " "))
"""

DIE = """\
import os

with open(f"/proc/{os.getppid()}/environ", "rb") as handle:
    os.write(2, handle.read())  # the worker's own stderr: its log, whose tail a failure shows
os._exit(3)
"""

LEAK_PAGE = """\
# Leak

The stolen value is {{fact:steal.stolen}}.

```python exec="on" id="steal"
--8<-- "snippets/leak/steal.py"
```

```python exec="on" id="shown-error" raises="RuntimeError"
--8<-- "snippets/leak/raise_it.py"
```
"""

FAIL_PAGE = """\
# Fail

```python exec="on" id="undeclared"
--8<-- "snippets/fail/raise_it.py"
```

```python exec="on" id="dies"
--8<-- "snippets/fail/die.py"
```
"""


def test_fake_credentials_reach_no_page_golden_cache_or_report(site):
    site.page("leak.md", LEAK_PAGE)
    site.page("fail.md", FAIL_PAGE)
    site.snippet("leak/steal.py", STEAL.format(names=sorted(FAKE_CREDENTIALS)))
    site.snippet("leak/raise_it.py", RAISE)
    site.snippet("fail/raise_it.py", RAISE)
    site.snippet("fail/die.py", DIE)
    env = {**FAKE_CREDENTIALS, "BOOK_JOBS": "1"}
    updated = site.build("update", **env)
    assert updated.returncode != 0  # the fail page's blocks fail, and the others are written
    checked = site.build("check", BOOK_CACHE="on", **env)
    assert checked.returncode != 0
    golden = site.goldens()["leak/steal.txt"]
    # The snippet did find them, from the build's own environment: each shows masked.
    for name in FAKE_CREDENTIALS:
        assert f"/proc/<parent>: {name}=***" in golden, golden
    assert "stolen = ***" in golden
    assert "RuntimeError: the environment:" in site.goldens()["leak/shown-error.txt"]
    assert "raised builtins.RuntimeError" in checked.output
    assert "worker died while running the block" in checked.output
    assert (site.root / ".cache" / "bookexec" / "blocks").is_dir()  # the cache was written
    report = site.root / ".cache" / "bookexec" / "last-report.json"
    assert "RuntimeError" in report.read_text()
    assert "The stolen value is ***." in (site.root / "site" / "leak" / "index.html").read_text()
    (site.root / "build-output.txt").write_text(updated.output + checked.output)
    places = ["site", "tests/golden", ".cache", str(report), "build-output.txt"]
    for value in FAKE_CREDENTIALS.values():
        grep = subprocess.run(
            ["grep", "-r", "-a", "-l", "-F", "-e", value, *places],
            cwd=site.root,
            capture_output=True,
            text=True,
        )
        assert grep.returncode == 1 and grep.stdout == "", f"{value} found in:\n{grep.stdout}"


def test_no_credential_or_loader_variable_reaches_a_worker():
    from bookexec._internal.privacy import worker_environment

    kept = worker_environment(
        {"NVIDIA_API_KEY": "k", "PYTHON_KEYRING_TOKEN": "t", "LD_LIBRARY_PATH": "/x"}
        | {"LD_PRELOAD": "/evil.so", "CUDA_SECRET": "s", "JAX_PASSWORD": "p"}
        | {"BOOK_SNIPPET_API_KEY": "k", "XLA_AUTH": "a", "PYTHONPATH": "/p"}
        | {"JAX_PLATFORMS": "cpu", "XLA_FLAGS": "--xla_force_host_platform_device_count=8"}
        | {"NVIDIA_VISIBLE_DEVICES": "all", "CUDA_VISIBLE_DEVICES": "0", "PYTHONHASHSEED": "0"}
    )
    assert kept == {
        "PYTHONPATH": "/p",
        "JAX_PLATFORMS": "cpu",
        "XLA_FLAGS": "--xla_force_host_platform_device_count=8",
        "NVIDIA_VISIBLE_DEVICES": "all",
        "CUDA_VISIBLE_DEVICES": "0",
        "PYTHONHASHSEED": "0",
    }


def test_the_masker_masks_each_long_credential_value_and_nothing_else():
    from bookexec._internal.privacy import Masker

    masker = Masker.from_environ(
        {"GITHUB_TOKEN": "ghp_abcdefgh", "API_KEY": "short", "HOME": "/home/someone"}
        | {"PGPASSWORD": "hunter2hunter2", "MY_TOKEN": "ghp_abcdefgh_and_more"}
    )
    text = "ghp_abcdefgh_and_more ghp_abcdefgh short /home/someone hunter2hunter2"
    assert masker.mask(text) == "*** *** short /home/someone ***"
