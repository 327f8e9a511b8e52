"""`mkdocs serve` leaves no folder of its own under `.cache/bookexec/serve/` (issue 38, point
12): SIGTERM ends it as Ctrl+C does, through MkDocs' own shutdown, and a serve that starts
removes the folders of serve processes that are gone (killed with SIGKILL, say)."""

from __future__ import annotations

import signal
import subprocess

from bookexec._internal.files import CachePaths
from conftest import serving

PAGE = '# Nap\n\n```python exec="on" id="nap"\n--8<-- "snippets/index/nap.py"\n```\n'


def folders_of(serve_dir, pid: int) -> list[str]:
    """The serve folders of process `pid` (its background's and its review's)."""
    if not serve_dir.is_dir():
        return []
    return sorted(p.name for p in serve_dir.iterdir() if p.name.split("-")[0] == str(pid))


def test_sigterm_of_mkdocs_serve_leaves_no_serve_folder_and_a_start_removes_dead_ones(
    site, tmp_path
):
    site.page("index.md", PAGE)
    site.snippet("index/nap.py", "print('awake')\n")
    serve_dir = CachePaths(site.root).serve
    gone = subprocess.Popen(["true"])  # a pid that no process holds once it is reaped
    gone.wait()
    for name in (str(gone.pid), f"{gone.pid}-review"):
        (serve_dir / name).mkdir(parents=True)
        (serve_dir / name / "asked").write_text("left by a serve killed with SIGKILL\n")
    with serving(site.root, tmp_path / "serve.log") as served:
        pid = served.proc.pid
        served.until(lambda: folders_of(serve_dir, pid))
        assert folders_of(serve_dir, gone.pid) == []
        served.proc.send_signal(signal.SIGTERM)
        served.proc.wait(timeout=60)
        assert folders_of(serve_dir, pid) == [], served.log()[-3000:]
