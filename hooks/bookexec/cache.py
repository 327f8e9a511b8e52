"""A page-level cache of outputs, for authors: `mkdocs serve` re-runs only the pages that changed.

Pages run in fresh processes, so a page's outputs depend only on its own blocks, the packages
installed and the environment JAX reads. The key covers exactly those, plus the executor's own
source. Files a snippet opens at run time are not in the key. CI builds never use the cache.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from bookexec.blocks import Block
from bookexec.golden import write_atomic

_ENV_PREFIXES = ("JAX_", "XLA_", "TF_CPP_", "BOOK_", "PYTHON")
_PACKAGES = ("jax", "jaxlib", "numpy", "ml_dtypes")


def enabled(serving: bool, environ=os.environ) -> bool:
    setting = environ.get("BOOK_CACHE", "auto")
    return serving if setting == "auto" else setting in ("on", "1", "yes")


def page_key(blocks: list[Block], environ=os.environ) -> str:
    digest = hashlib.sha256()
    for block in blocks:
        options = sorted(block.options.items())
        digest.update(json.dumps([block.id, block.snippet, block.code, options]).encode())
    digest.update(sys.version.encode())
    for package in _PACKAGES:
        try:
            digest.update(f"{package}={version(package)}".encode())
        except PackageNotFoundError:
            digest.update(f"{package}=missing".encode())
    for name in sorted(environ):
        if name.startswith(_ENV_PREFIXES) and name != "BOOK_CACHE":
            digest.update(f"{name}={environ[name]}".encode())
    for module in ("worker.py", "runner.py", "facts.py"):
        digest.update((Path(__file__).parent / module).read_bytes())
    return digest.hexdigest()[:32]


class PageCache:
    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def _path(self, page: str, key: str) -> Path:
        return self.folder / f"{page.replace('/', '__')}.{key}.json"

    def load(self, page: str, key: str) -> dict | None:
        path = self._path(page, key)
        try:
            return json.loads(path.read_text())
        except (OSError, ValueError):
            return None

    def save(self, page: str, key: str, record: dict) -> None:
        for old in self.folder.glob(f"{page.replace('/', '__')}.*.json"):
            old.unlink(missing_ok=True)
        write_atomic(self._path(page, key), json.dumps(record))
