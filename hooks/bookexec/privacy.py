"""Nothing private of the build machine reaches the site: its environment stays out of snippets.

A worker gets only the variables that change how Python and JAX run (all of which the block
cache's key covers), so a snippet cannot print the value of any other variable of the
machine. Paths, the user name and the host name that a snippet can still find out are
replaced by placeholders in `normalize`.
"""

from __future__ import annotations

import contextlib
import getpass
import os
import socket
from collections.abc import Mapping

# Variables a worker keeps: exact names, then prefixes. BOOK_SNIPPET_* is the way to hand a
# snippet a value on purpose (the tests inject fake measurements with it).
_KEEP = frozenset({"PATH", "HOME", "LANG", "LANGUAGE", "TZ", "TMPDIR", "TEMP", "TMP"})
_KEEP_PREFIXES = (
    *("LC_", "PYTHON", "JAX_", "XLA_", "TF_CPP_", "CUDA_", "NVIDIA_", "LD_LIBRARY"),
    "BOOK_SNIPPET_",
)
# Account names that are the same on every machine say nothing private, and a short name
# would be replaced inside ordinary words of an output.
_PUBLIC_NAMES = frozenset({"root", "runner", "user", "nobody", "localhost"})


def worker_environment(environ: Mapping[str, str]) -> dict[str, str]:
    """The variables a snippet sees: only those that shape how Python and JAX run."""
    return {
        name: value
        for name, value in environ.items()
        if name in _KEEP or name.startswith(_KEEP_PREFIXES)
    }


def machine_names(environ: Mapping[str, str] = os.environ) -> dict[str, str]:
    """This machine's user and host names, each with the placeholder that replaces it."""
    names: dict[str, str] = {}
    users = {environ.get("USER", ""), environ.get("LOGNAME", "")}
    with contextlib.suppress(OSError, KeyError):
        users.add(getpass.getuser())
    for user in users:
        names[user] = "<user>"
    host = socket.gethostname()
    names[host] = "<host>"
    names[host.split(".")[0]] = "<host>"
    return {
        name: placeholder
        for name, placeholder in names.items()
        if len(name) >= 3 and name.lower() not in _PUBLIC_NAMES
    }
