"""Debian's chromium, which the browser tests drive through Playwright's executable-path option.

Without --no-install-recommends apt-get pulls about 130 packages and upgrades system ones
(avahi-daemon, cups, systemd...); with it, chromium and about 25 libraries (about 350 MB).
Nothing is installed without a yes: `--yes`, the CI variable, or an answer at a terminal.
"""

from __future__ import annotations

import os
import shutil
import sys

from jaxbook.cli.process import Failed, call

_SIZE = "about 25 packages, 350 MB"


def ensure_chromium(yes: bool) -> None:
    """Return when `chromium` is on PATH, installing it with apt-get if allowed; else `Failed`."""
    if shutil.which("chromium"):
        return
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        raise Failed(
            1,
            "book: the browser tests need chromium; install it:\n"
            "book:   sudo apt-get install --no-install-recommends chromium",
        )
    if not yes and not os.environ.get("CI"):
        if not sys.stdin.isatty():
            raise Failed(
                1,
                f"book: the browser tests need Debian's chromium ({_SIZE}, with\n"
                "book: --no-install-recommends); run ./book test --yes to install it, or set CI.",
            )
        try:
            answer = input(
                "book: install Debian's chromium for the browser tests (apt-get install "
                f"--no-install-recommends chromium: {_SIZE})? [y/N] "
            )
        except EOFError:
            answer = ""
        # Imported here, after the set-up (`prepare`): the engine needs the venv's packages.
        from bookexec._internal.discover.options import TRUE_WORDS

        if answer.strip().lower() not in ("y", *TRUE_WORDS):  # the book's yes, and y
            raise Failed(1, "book: not installed; the browser tests need it.")
    print(
        "book: installing Debian's chromium with --no-install-recommends "
        f"({_SIZE}, under a minute)",
        flush=True,
    )
    call(["apt-get", "update", "-qq"])
    install = ["apt-get", "install", "-y", "-qq", "--no-install-recommends", "chromium"]
    call(install, env={"DEBIAN_FRONTEND": "noninteractive"}, quiet=True)
