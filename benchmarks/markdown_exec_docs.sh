#!/usr/bin/env bash
# markdown-exec's own documentation, switched to the engine by one line, updated then checked.
#
#   benchmarks/markdown_exec_docs.sh REPO VENV [WORK]
#
# REPO: a clone of markdown-exec (any git directory holding commit eef2661, its last one with a
# mkdocs.yml); VENV: a virtual environment with executed-book (`pip install -e hooks`), the
# docs' plugins (mkdocstrings-python, mkdocs-autorefs, mkdocs-section-index, mkdocs-llmstxt,
# mkdocs-git-revision-date-localized-plugin, mkdocs-minify-plugin, markdown-callouts,
# markdown-exec) and the gallery's packages (rich, plotly, drawsvg, qrcode, textual, duty,
# pydeps, diagrams, chalk-diagrams, colour, hyperbolic, pandas; graphviz's `dot` on PATH; the
# `mkdocs` script in VENV/bin, which a console fence runs); WORK: where the docs are laid out
# (default: a new temporary folder), the two builds' logs beside it (WORK.update.log,
# WORK.check.log: outside it, as a block lists its files). Slow (a minute or two) and needs
# those packages: not part of the suite. docs/guide/testing.md says what to expect.
set -euo pipefail
repo=${1:?REPO: a clone of markdown-exec}
venv=${2:?VENV: a virtual environment with executed-book and the docs plugins}
work=${3:-$(mktemp -d)}
commit=eef2661

mkdir -p "$work"
git -C "$repo" archive "$commit" | tar -x -C "$work"
cd "$work"
# The quick start's one line: `executed-book` where the docs list `markdown-exec` (its option
# `ansi: required` kept: the engine honours it). Left out, as a build without network needs:
# the coverage plugin and its page (no coverage run here) and the mkdocstrings inventories' URLs.
"$venv/bin/python" - <<'EOF'
import re
from pathlib import Path

config = Path("mkdocs.yml")
text = config.read_text()
text = text.replace("- markdown-exec:\n    ansi: required\n", "- executed-book:\n    ansi: required\n")
text = text.replace("  - Coverage report: coverage.md\n", "").replace("- coverage\n", "")
text = re.sub(r"        inventories:\n(?:        - https://\S+\n)+", "", text)
assert "- executed-book:\n" in text and "coverage" not in text and "inventories" not in text
config.write_text(text)
EOF
# The git-revision plugin reads the pages' history.
git init -q && git add -A && git -c user.name=bench -c user.email=bench@localhost commit -qm docs
export PATH="$venv/bin:$PATH"
status=0
echo "== update: $work"
GOLDEN=update python -m mkdocs build --strict 2>&1 | tee "$work.update.log" || status=$?
echo "== check"
python -m mkdocs build --strict 2>&1 | tee "$work.check.log" || status=$?
exit "$status"
