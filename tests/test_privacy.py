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

from conftest import _CONFIG, MKDOCS, REPO

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
    # The real layout: the hooks live inside the checkout, as in the book's own repository.
    shutil.copytree(REPO / "hooks", root / "hooks", ignore=shutil.ignore_patterns("__pycache__"))
    (root / "mkdocs.yml").write_text(_CONFIG.format(hook="hooks/executed_book.py"))
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
    from bookexec.privacy import worker_environment

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
    from bookexec.goldens.normalize import path_rules, paths
    from bookexec.privacy import machine_names

    names = machine_names({"USER": "alice", "LOGNAME": "root"})
    assert names["alice"] == "<user>" and "root" not in names
    rules = path_rules(Path("/srv/book"), names={"alice": "<user>", "box-7": "<host>"})
    text = "user=alice on box-7 (alice's), not malice or box-77"
    assert paths(text, rules) == "user=<user> on <host> (<user>'s), not malice or box-77"
