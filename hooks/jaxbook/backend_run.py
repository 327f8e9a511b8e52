"""Run the book's chapter notebooks as a reader runs them, and record what each block printed.

This file runs on its own, with nothing but the standard library and the JAX it finds: on an
accelerator's machine (a TPU's Python 3.11 and its own JAX, no network, no venv) as on this
one. It never imports the engine or the book:

    python3 hooks/jaxbook/backend_run.py --name tpu-v5e --out DIR site/*/*.ipynb

Each notebook runs in a fresh interpreter of its own (one program at a time may hold a TPU),
its code cells in order in one namespace, the way a kernel runs them: the set-up cell (which
only installs the pinned JAX) is skipped, a `%%script {sys.executable}` cell runs in a new
process, a debugger's prompt is answered with the commands its golden's transcript shows.
Each block's record is `DIR/<chapter>/<block>.txt`: a header (`block:`, `result:`,
`seconds:`), `---`, and what the cell printed (stdout and stderr as the process wrote them,
then the exception's last line if it raised), this machine's paths replaced by placeholders.
`DIR/RECORDED` says what ran: the name, JAX, jaxlib, Python, backend and devices.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import linecache
import os
import re
import signal
import subprocess
import sys
import sysconfig
import tempfile
import time
import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import Any

WRITTEN_BY = "./book accelerators --record (never edit by hand)"
CELL_SECONDS = 300  # a block that runs longer is recorded as timed out
SCRIPT = "%%script {sys.executable}"
_JDB_COMMAND = re.compile(r"(?m)^\(jdb\) (.*)$")


def machine_paths(root: Path) -> list[tuple[str, str]]:
    """This machine's folders, most specific first, and the placeholder each becomes."""
    pairs = [
        *((sysconfig.get_paths()[k], "<site-packages>") for k in ("purelib", "platlib")),
        *((p, "<site-packages>") for p in os.environ.get("PYTHONPATH", "").split(os.pathsep)),
        (sysconfig.get_paths()["stdlib"], "<stdlib>"),
        (str(root), "<root>"),
        (tempfile.gettempdir(), "<tmp>"),
        (str(Path.home()), "<home>"),
    ]
    kept = [(p.rstrip("/"), name) for p, name in pairs if p and len(p) > 1]
    return sorted(set(kept), key=lambda pair: -len(pair[0]))


def normalised(text: str, paths: list[tuple[str, str]]) -> str:
    for prefix, name in paths:
        text = re.sub(re.escape(prefix) + r"(?=[/\s'\":;),\]>]|$)", name, text)
    return text


@contextlib.contextmanager
def captured() -> Iterator[Path]:
    """Both of the process's output streams, at the file descriptors (what JAX's C++ writes
    too), into one file, in the order they were written."""
    with tempfile.NamedTemporaryFile(suffix=".out", delete=False) as file:
        path = Path(file.name)
    sys.stdout.flush()
    sys.stderr.flush()
    saved = os.dup(1), os.dup(2)
    target = os.open(path, os.O_WRONLY)
    os.dup2(target, 1)
    os.dup2(target, 2)
    try:
        yield path
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        for fd in (target, *saved):
            os.close(fd)


def _typist(commands: list[str]) -> None:
    """Answer the next debugger prompts with `commands`, echoed as a terminal shows them."""
    import cmd

    typed = iter(commands)

    def type_one(prompt: str = "") -> str:
        line = next(typed)
        print(prompt + line)
        return line

    cmd.input = type_one  # type: ignore[attr-defined]


def _timeout(signum: int, frame: Any) -> None:
    raise TimeoutError(f"the block ran past {CELL_SECONDS} s")


def code_hash(code: str) -> str:
    """The hash a record keeps of the code that ran (`code:`), so a page can tell a record
    made before its block's code changed."""
    if code.startswith(SCRIPT):  # the cell's magic line is the notebook's, not the block's
        code = code[len(SCRIPT) :]
    return hashlib.sha256(code.strip("\n").encode("utf-8")).hexdigest()[:16]


def run_cell(code: str, filename: str, namespace: dict[str, Any]) -> tuple[str, str]:
    """Run one cell; (result, output). result: `ok`, `raised <Type>`."""
    if code.startswith(SCRIPT):
        body = code[len(SCRIPT) :].lstrip("\n")
        try:
            done = subprocess.run(
                [sys.executable, "-c", body],
                cwd=os.getcwd(),
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                timeout=CELL_SECONDS,
            )
        except subprocess.TimeoutExpired:
            return "raised TimeoutError", f"TimeoutError: the block ran past {CELL_SECONDS} s\n"
        return ("ok" if done.returncode == 0 else "raised SystemExit"), done.stdout
    result = "ok"
    # Tracebacks and JAX's messages quote the line, as for a file of that name.
    linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)
    with captured() as path:
        signal.signal(signal.SIGALRM, _timeout)
        signal.alarm(CELL_SECONDS)
        try:
            exec(compile(code, filename, "exec"), namespace)
            jax = sys.modules.get("jax")
            if jax is not None:
                jax.effects_barrier()  # what a callback prints belongs to its block
        except BaseException as error:  # a reader's cell may raise anything
            result = f"raised {type(error).__name__}"
            lines = traceback.format_exception_only(type(error), error)
            print("".join(lines).rstrip("\n"), file=sys.stderr)
        finally:
            signal.alarm(0)
    output = path.read_text(encoding="utf-8", errors="replace")
    path.unlink()
    return result, output


def run_notebook(notebook: Path, out: Path, root: Path) -> None:
    """One chapter's notebook, in this interpreter: a record per block."""
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    chapter = notebook.stem
    paths = machine_paths(root)
    namespace: dict[str, Any] = {"__name__": "__main__"}
    (out / chapter).mkdir(parents=True, exist_ok=True)
    for cell in cells:
        meta = cell.get("metadata", {}).get("executed-book", {})
        if cell["cell_type"] != "code" or "block" not in meta:
            continue  # prose, or the set-up cell that installs the pinned JAX
        code = "".join(cell["source"])
        golden = root / meta.get("golden", "")
        if golden.is_file() and (commands := _JDB_COMMAND.findall(golden.read_text("utf-8"))):
            _typist(commands)
        name = Path(meta.get("snippet", meta["block"])).name
        started = time.perf_counter()
        result, output = run_cell(code, name, namespace)
        seconds = time.perf_counter() - started
        header = (
            f"block: docs/{chapter}.md#{meta['block']}\n"
            f"snippet: {meta.get('snippet', '')}\n"
            f"written-by: {WRITTEN_BY}\n"
            f"code: {code_hash(code)}\n"
            f"result: {result}\n"
            f"seconds: {seconds:.3f}\n---\n"
        )
        record = out / chapter / f"{meta['block']}.txt"
        record.write_text(header + normalised(output, paths), encoding="utf-8")
        print(f"{chapter}#{meta['block']}: {result} ({seconds:.1f} s)", file=sys.__stderr__)


def describe(name: str, out: Path) -> None:
    """`out/RECORDED`: what the records were made with, asked of JAX in a process of its own
    (the notebooks' processes may each change the device count)."""
    ask = (
        "import json, platform, jax, jaxlib\n"
        "d = jax.devices()\n"
        "print(json.dumps({'jax': jax.__version__, 'jaxlib': jaxlib.__version__,"
        " 'python': platform.python_version(), 'backend': jax.default_backend(),"
        " 'devices': len(d), 'device_kind': d[0].device_kind}))"
    )
    said = subprocess.run([sys.executable, "-c", ask], capture_output=True, text=True, check=True)
    facts = json.loads(said.stdout.strip().splitlines()[-1])
    lines = [f"name: {name}", *(f"{key}: {value}" for key, value in facts.items())]
    lines.append(f"date: {time.strftime('%Y-%m-%d', time.gmtime())}")
    (out / "RECORDED").write_text("\n".join(lines) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--name", required=True, help="the records' name, e.g. tpu-v5e")
    parser.add_argument("--out", required=True, type=Path, help="the records' folder")
    parser.add_argument("--root", type=Path, default=Path.cwd(), help="the book's checkout")
    parser.add_argument("--one", action="store_true", help="run one notebook in this process")
    parser.add_argument("notebooks", nargs="+", type=Path)
    args = parser.parse_args(argv)
    root = args.root.resolve()
    if args.one:
        notebook, out = args.notebooks[0].resolve(), args.out.resolve()
        os.chdir(tempfile.mkdtemp(prefix="backend-run-"))  # a block writes only its own folder
        run_notebook(notebook, out, root)
        return 0
    args.out.mkdir(parents=True, exist_ok=True)
    describe(args.name, args.out)
    failed = 0
    for notebook in args.notebooks:  # one at a time: one program may hold a TPU
        command = [sys.executable, __file__, "--one", "--name", args.name]
        command += ["--out", str(args.out.resolve()), "--root", str(root)]
        command.append(str(notebook.resolve()))
        failed += subprocess.run(command, check=False).returncode != 0
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
