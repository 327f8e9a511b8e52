"""The parent side of execution: one fresh worker per page, pages in parallel, hard time limits.

A page's blocks share one session (one `__main__`), and nothing else: every page starts in a
new process, so its outputs never depend on which pages ran before it. A block that runs past
its time limit is killed from outside, which works even inside a long XLA compile.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import Pipe
from pathlib import Path

from bookexec import measured
from bookexec.blocks import Block
from bookexec.cache import PageCache, page_key
from bookexec.measured import Claim, Fact

DEFAULT_TIMEOUT = float(os.environ.get("BOOK_BLOCK_TIMEOUT", "120"))
DEFAULT_OUTPUT_LIMIT = int(os.environ.get("BOOK_OUTPUT_LIMIT", "200000"))
PRELOAD = ["jax"]
_STARTUP_TIMEOUT = 120.0


@dataclass
class BlockRun:
    """What one block did, judged against what its fence declared."""

    block: Block
    output: str = ""  # raw text the reader would have seen, before normalisation
    failure: str | None = None  # why the build must stop, naming page, block, snippet and line
    seconds: float = 0.0
    facts: list[Fact] = field(default_factory=list)
    claims: list[Claim] = field(default_factory=list)


@dataclass
class PageRun:
    page: str
    blocks: list[BlockRun] = field(default_factory=list)
    backend: str = "none"
    devices: int = 0  # how many devices the backend had; reported after the last block
    cached: bool = False

    @property
    def failure(self) -> str | None:
        return next((run.failure for run in self.blocks if run.failure), None)

    def record(self) -> dict:
        outputs = [
            {
                "output": run.output,
                "seconds": run.seconds,
                "facts": [vars(fact) for fact in run.facts],
                "claims": [vars(claim) for claim in run.claims],
            }
            for run in self.blocks
        ]
        return {"backend": self.backend, "devices": self.devices, "blocks": outputs}

    @classmethod
    def from_record(cls, page: str, blocks: list[Block], record: dict) -> PageRun:
        runs = [
            BlockRun(
                block=block,
                output=saved["output"],
                seconds=saved["seconds"],
                facts=[Fact(**fact) for fact in saved["facts"]],
                claims=[Claim(**claim) for claim in saved["claims"]],
            )
            for block, saved in zip(blocks, record["blocks"], strict=True)
        ]
        devices = record.get("devices", 0)
        return cls(page=page, blocks=runs, backend=record["backend"], devices=devices, cached=True)


def is_fresh(block: Block) -> bool:
    return block.options.get("fresh", "").lower() in ("true", "yes", "on", "1")


def block_timeout(block: Block) -> float:
    return float(block.options.get("timeout", DEFAULT_TIMEOUT))


def judge(block: Block, raw: dict) -> BlockRun:
    """Turn a worker's raw result into what the page shows, or a failure that stops the build."""
    run = BlockRun(block=block, output=raw["output"], seconds=raw.get("seconds", 0.0))
    band = float(block.options.get("band", measured.DEFAULT_BAND))
    run.facts, run.claims = measured.from_worker(raw.get("facts", []), raw.get("claims", []), band)
    declared = block.options.get("raises")
    error = raw.get("error")
    if raw.get("flooded"):
        limit = block.options.get("limit", DEFAULT_OUTPUT_LIMIT)
        run.failure = f"{block.where}: output flooded past {limit} characters; stopped"
        return run
    if error is None:
        if declared:
            run.failure = f'{block.where}: declared raises="{declared}" but nothing was raised'
        return run
    at = f", line {error['line']}" if error.get("line") else ""
    if declared and declared in (error["type"], error["qualified"]):
        run.output = run.output + error["shown"]
        return run
    expected = f' (declared raises="{declared}")' if declared else ""
    run.failure = (
        f"{block.where}{at}: raised {error['qualified']}{expected}\n{error['traceback']}".rstrip()
    )
    return run


class Worker:
    """A child Python process running `bookexec.worker`, reached over a private pipe."""

    def __init__(self, root: Path, log_dir: str, preload: list[str] = PRELOAD) -> None:
        self.root = root
        parent, child = Pipe()
        self.conn = parent
        self.stack_file = os.path.join(log_dir, f"stack-{id(self)}.txt")
        self.log_file = os.path.join(log_dir, f"worker-{id(self)}.log")
        with open(self.log_file, "wb") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "bookexec.worker", str(child.fileno())],
                pass_fds=[child.fileno()],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                cwd=root,
                env=_worker_env(),
            )
        child.close()
        self.conn.send({"preload": preload, "stack_file": self.stack_file})

    def ready(self) -> None:
        self._receive(_STARTUP_TIMEOUT, "starting the worker")

    def run(self, block: Block) -> dict:
        timeout = block_timeout(block)
        self.conn.send(
            {
                "op": "run",
                "code": block.code,
                "snippet": block.snippet,
                "timeout": timeout,
                "limit": int(block.options.get("limit", DEFAULT_OUTPUT_LIMIT)),
            }
        )
        return self._receive(timeout + 5.0, f"running {block.where}", block=block)

    def finish(self) -> dict:
        """The worker's last word: {"backend": name, "devices": count}."""
        self.conn.send({"op": "finish"})
        return self._receive(30.0, "closing the worker")

    def _receive(self, timeout: float, doing: str, block: Block | None = None) -> dict:
        try:
            if self.conn.poll(timeout):
                return self.conn.recv()
        except (EOFError, OSError):
            self.proc.wait(timeout=5)
            raise WorkerFailed(
                f"worker died while {doing} (exit code {self.proc.returncode})" + self._log_tail()
            ) from None
        self.kill()
        where = self._stuck_line(block)
        raise WorkerFailed(f"timed out after {timeout - 5.0:g} s while {doing}{where}")

    def _stuck_line(self, block: Block | None) -> str:
        if block is None or not os.path.exists(self.stack_file):
            return ""
        with open(self.stack_file) as stacks:
            dump = stacks.read()
        lines = [ln for ln in dump.splitlines() if f'File "{block.snippet}", line' in ln]
        if not lines:
            return ""
        line = lines[0].split(", line ")[1].split()[0]
        return f"; it was running {block.snippet} line {line}"

    def _log_tail(self) -> str:
        try:
            with open(self.log_file, errors="replace") as log:
                tail = log.read()[-2000:]
        except OSError:
            return ""
        return f"\nworker log:\n{tail}" if tail.strip() else ""

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.conn.close()


class WorkerFailed(Exception):
    pass


def _worker_env() -> dict[str, str]:
    env = dict(os.environ)
    # The worker imports bookexec by path whether or not the project is installed.
    package_parent = str(Path(__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_parent, env.get("PYTHONPATH")]))
    env.setdefault("PYTHONHASHSEED", "0")
    return env


class Executor:
    """Runs pages in parallel, each in its own fresh worker; stops everything on first failure."""

    def __init__(
        self,
        root: Path,
        jobs: int | None = None,
        fail_fast: bool = True,
        cache: PageCache | None = None,
    ) -> None:
        self.root = root
        self.fail_fast = fail_fast
        self.cache = cache
        self.cached_pages = 0
        self.jobs = jobs or int(os.environ.get("BOOK_JOBS", "0")) or (os.cpu_count() or 1)
        self._pool = ThreadPoolExecutor(max_workers=self.jobs, thread_name_prefix="book-page")
        self._futures: dict[str, Future[PageRun]] = {}
        self._workers: set[Worker] = set()
        self._lock = threading.Lock()
        self._log_dir = tempfile.mkdtemp(prefix="bookexec-")
        self.stopped = threading.Event()
        self.first_failure: str | None = None

    def submit(self, page: str, blocks: list[Block]) -> None:
        if not blocks:
            return
        key = page_key(blocks) if self.cache else ""
        record = self.cache.load(page, key) if self.cache else None
        if record is not None and len(record["blocks"]) == len(blocks):
            done: Future[PageRun] = Future()
            done.set_result(PageRun.from_record(page, blocks, record))
            self._futures[page] = done
            self.cached_pages += 1
            return
        self._futures[page] = self._pool.submit(self._run_page, page, blocks, key)

    def page(self, page: str) -> PageRun:
        return self._futures[page].result()

    def has(self, page: str) -> bool:
        return page in self._futures

    def _run_page(self, page: str, blocks: list[Block], key: str) -> PageRun:
        result = PageRun(page=page)
        if self.stopped.is_set():
            return result
        worker = Worker(self.root, self._log_dir)
        with self._lock:
            self._workers.add(worker)
        try:
            worker.ready()
            for block in blocks:
                if self.stopped.is_set():
                    break
                try:
                    raw = self._run_fresh(block) if is_fresh(block) else worker.run(block)
                    run = judge(block, raw)
                except WorkerFailed as failure:
                    run = BlockRun(block=block, failure=f"{block.where}: {failure}")
                result.blocks.append(run)
                if run.failure:
                    self._fail(run.failure)
                    break
            else:
                last = worker.finish()
                result.backend, result.devices = last["backend"], last.get("devices", 0)
                if self.cache:
                    self.cache.save(page, key, result.record())
        except WorkerFailed as failure:
            self._fail(f"docs/{page}: {failure}")
            result.blocks.append(BlockRun(block=blocks[0], failure=f"docs/{page}: {failure}"))
        finally:
            worker.kill()
            with self._lock:
                self._workers.discard(worker)
        return result

    def _run_fresh(self, block: Block) -> dict:
        """A block that must not see its page's imports runs alone in a new interpreter."""
        worker = Worker(self.root, self._log_dir, preload=[])
        with self._lock:
            self._workers.add(worker)
        try:
            worker.ready()
            raw = worker.run(block)
            worker.finish()
            return raw
        finally:
            worker.kill()
            with self._lock:
                self._workers.discard(worker)

    def _fail(self, message: str) -> None:
        with self._lock:
            if self.first_failure is None:
                self.first_failure = message
        if self.fail_fast:
            self.stop()

    def stop(self) -> None:
        """Stop every page now: kill the workers and drop what has not started."""
        self.stopped.set()
        with self._lock:
            workers = list(self._workers)
        for worker in workers:
            worker.kill()
        self._pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)
