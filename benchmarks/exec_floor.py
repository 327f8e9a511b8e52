"""The execution floor: every executed block of the book run once, straight, in one process.

No MkDocs, no workers, no goldens: JAX is imported once, each page gets a fresh namespace,
and its blocks run in order with their output captured and thrown away. The build can't run
its blocks faster than this on one core, so the benchmark reports builds against it.

A page that sets the CPU device count runs first, because that setting only takes effect
before JAX starts its backend; later pages then see those devices too.

    .venv/bin/python benchmarks/exec_floor.py [book-root]
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
import time
from pathlib import Path

started = time.perf_counter()

import jax  # noqa: E402  (timed: the floor pays for one import of JAX)

from bookexec import facts  # noqa: E402
from bookexec._internal.discover.blocks import Block, scan_page  # noqa: E402
from jaxbook import labs  # noqa: E402


def book_blocks(root: Path) -> list[list[Block]]:
    docs = root / "docs"
    pages = [
        scan_page(str(path.relative_to(docs)), path.read_text(), root)
        for path in sorted(docs.rglob("*.md"))
    ]
    pages += [
        labs.scan_lab(str(path.relative_to(docs)), path)
        for path in sorted(docs.rglob("*.ipynb"))
        if labs.is_lab(str(path.relative_to(docs)))
    ]
    pages = [blocks for blocks in pages if blocks]
    configures = [b for b in pages if any("jax_num_cpu_devices" in x.code for x in b)]
    return configures + [b for b in pages if b not in configures]


def run_block(block: Block, namespace: dict) -> str | None:
    """Run one block; return why it failed in a way its fence did not declare, or None."""
    sink = io.StringIO()
    declared = block.options.get("raises")
    try:
        with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
            exec(compile(block.code, block.snippet, "exec"), namespace)
            jax.effects_barrier()
    except BaseException as error:  # a declared SystemExit counts too
        names = {type(error).__name__, f"{type(error).__module__}.{type(error).__qualname__}"}
        if declared not in names:
            return f"{block.where}: {type(error).__name__}: {error}"
    finally:
        facts._facts.clear()
        facts._claims.clear()
    return None


def main() -> None:
    root = Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    sys.path.insert(0, str(root))
    failures, count = [], 0
    for blocks in book_blocks(root):
        namespace = {"__name__": "__main__"}
        for block in blocks:
            count += 1
            failure = run_block(block, namespace)
            if failure:
                failures.append(failure)
    seconds = time.perf_counter() - started
    print(json.dumps({"blocks": count, "seconds": seconds, "failures": failures}))


if __name__ == "__main__":
    main()
