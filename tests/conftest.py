"""Shared helpers: small fixture sites built with the real hooks, and the real MkDocs."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
HOOK = REPO / "hooks" / "executed_book.py"
MKDOCS = Path(sys.executable).parent / "mkdocs"

_CONFIG = """\
site_name: fixture
docs_dir: docs
hooks:
  - {hook}
plugins:
  - markdown-exec:
      languages: [python]
markdown_extensions:
  - admonition
  - pymdownx.superfences
  - pymdownx.snippets:
      base_path: !relative $config_dir
      check_paths: true
"""


@dataclass
class Result:
    returncode: int
    output: str


@dataclass
class Site:
    """A throwaway book: pages, snippets and goldens in the real layout, built by real MkDocs."""

    root: Path

    def page(self, name: str, markdown: str) -> None:
        path = self.root / "docs" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(markdown))

    def snippet(self, name: str, code: str) -> None:
        path = self.root / "snippets" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(code))

    def golden(self, page: str, block_id: str) -> Path:
        return self.root / "tests" / "golden" / Path(page).with_suffix("") / f"{block_id}.txt"

    def goldens(self) -> dict[str, str]:
        base = self.root / "tests" / "golden"
        return {str(p.relative_to(base)): p.read_text() for p in sorted(base.rglob("*.txt"))}

    def build(self, mode: str = "check", timeout: float = 300, **env: str) -> Result:
        environ = {**os.environ, "GOLDEN": mode, "NO_MKDOCS_2_WARNING": "1", **env}
        proc = subprocess.run(
            [str(MKDOCS), "build", "--strict"],
            cwd=self.root,
            env=environ,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=timeout,
        )
        return Result(proc.returncode, proc.stdout)


@pytest.fixture
def site(tmp_path: Path) -> Site:
    root = tmp_path / "book"
    (root / "docs").mkdir(parents=True)
    (root / "mkdocs.yml").write_text(_CONFIG.format(hook=HOOK))
    return Site(root)
