"""Nothing private of the build machine reaches the site: its environment stays out of snippets.

A worker gets only the variables that change how Python and JAX run (all of which the block
cache's key covers), and never one whose name looks like a credential, so a snippet cannot
print the value of any other variable of the machine. A snippet can still find the build's
own environment (`/proc/<parent>/environ`), so on top of that every output is masked as CI
systems mask secrets (`Masker`): each value of 8 characters or more of a credential-looking
variable of the build process becomes `***` before it is compared, stored, cached or shown;
and whatever else a page shows (a block's source, an included file, the prose) is masked too
(`Masker.mask_shown`).
Paths, the user name and the host name that a snippet can still find out are replaced by
placeholders in `normalize`.
"""

from __future__ import annotations

import contextlib
import getpass
import html
import json
import re
import socket
from collections.abc import Mapping
from dataclasses import dataclass

# Variables a worker keeps: exact names, then prefixes. BOOK_SNIPPET_* is the way to hand a
# snippet a value on purpose (the tests inject fake measurements with it). No LD_*: a worker
# needs no loader path (jaxlib finds its own libraries), and it can change what code runs.
_KEEP = frozenset({"PATH", "HOME", "LANG", "LANGUAGE", "TZ", "TMPDIR", "TEMP", "TMP"})
_KEEP_PREFIXES = (
    *("LC_", "PYTHON", "JAX_", "XLA_", "TF_CPP_", "CUDA_", "NVIDIA_"),
    "BOOK_SNIPPET_",
)
# A name looks like a credential when one of its `_`-separated words is one of these, or
# contains one of the longer ones (GITHUB_TOKEN, NVIDIA_API_KEY, DB_PASSWORD, PGPASSWORD,
# AWS_SECRET_ACCESS_KEY, ...). Such a variable never reaches a worker, whatever its prefix.
_SECRET_WORDS = frozenset({"KEY", "PASS", "PAT", "AUTH", "PRIVATE", "COOKIE", "SESSION"})
_SECRET_PARTS = ("TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL", "APIKEY", "PASSPHRASE")
_NEVER_PREFIXES = ("LD_",)  # the dynamic loader's: LD_PRELOAD, LD_LIBRARY_PATH, LD_AUDIT...
MASK = "***"
MIN_MASKED = 8  # shorter values would mask ordinary words of an output, as in CI systems
# Account names that are the same on every machine say nothing private, and a short name
# would be replaced inside ordinary words of an output.
_PUBLIC_NAMES = frozenset({"root", "runner", "user", "nobody", "localhost"})


def looks_secret(name: str) -> bool:
    """Whether a variable's name looks like a credential's (`*_KEY`, `*_TOKEN`, `*PASSWORD*`...)."""
    upper = name.upper()
    words = set(re.split(r"[^A-Z0-9]+", upper))
    return bool(words & _SECRET_WORDS) or any(part in upper for part in _SECRET_PARTS)


def worker_environment(environ: Mapping[str, str]) -> dict[str, str]:
    """The variables a snippet sees: only those that shape how Python and JAX run."""
    return {
        name: value
        for name, value in environ.items()
        if (name in _KEEP or name.startswith(_KEEP_PREFIXES))
        and not name.startswith(_NEVER_PREFIXES)
        and not looks_secret(name)
    }


@dataclass(frozen=True)
class Masker:
    """The build's secrets, and `mask`, which replaces each of them in a text by `***`.

    Made once per build from the build process's own environment: a value a block reads
    from `/proc/<build pid>/environ`, prints, raises or records is masked like one it got
    any other way.
    """

    secrets: tuple[str, ...] = ()

    @classmethod
    def from_environ(cls, environ: Mapping[str, str]) -> Masker:
        """Every value of 8 characters or more of a credential-looking variable."""
        values = {
            value
            for name, value in environ.items()
            if looks_secret(name) and len(value.strip()) >= MIN_MASKED
        }
        # Longest first, so a secret that contains another is masked whole.
        return cls(tuple(sorted(values, key=lambda value: (-len(value), value))))

    def mask(self, text: str) -> str:
        """The text with every secret replaced by `***`."""
        for secret in self.secrets:
            if secret in text:
                text = text.replace(secret, MASK)
        return text

    def mask_shown(self, text: str) -> str:
        """A text as a page, a notebook or the search index holds it: every secret masked as
        it is written, HTML-escaped and JSON-escaped (a shown source, an included file, the
        prose: whatever a page shows, not only what a block printed)."""
        for secret in self.secrets:
            for form in sorted(_written_forms(secret), key=len, reverse=True):
                if form in text:
                    text = text.replace(form, MASK)
        return text

    def value(self, value: float | str) -> float | str:
        """A recorded value: a string masked, a number as it is."""
        return self.mask(value) if isinstance(value, str) else value


def _written_forms(secret: str) -> set[str]:
    """A secret as it can appear in an HTML page or a JSON file."""
    return {
        secret,
        html.escape(secret),
        html.escape(secret, quote=False),
        json.dumps(secret)[1:-1],
        json.dumps(secret, ensure_ascii=False)[1:-1],
    }


def machine_names(environ: Mapping[str, str]) -> dict[str, str]:
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
