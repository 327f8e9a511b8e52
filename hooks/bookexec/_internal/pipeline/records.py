"""Sharded runs (issue 57): a book's pages run on N machines, each writing its run records, and
one build that reads every shard's records as its run stage's results, then judges and renders.

A shard's run (`run_shard`, `./book run --shard I/N`) plans the whole book as a build plans it
(`drive.plan_book`), takes the pages `assign` gives shard I, runs them through the run stage
and writes `shard-I-of-N.json`: per page, each block's output, failure, facts, claims and
seconds, the page's backend and notes, the source hash of its blocks (`source_hash`) and the
environment key the block cache uses (`environment`). Nothing is judged or rendered. It stores
its blocks' runs in the block cache (unless the cache is off) and, asked to (`--block-cache`),
reads it: a block found there is not run, and its record says `cached`; a block that
measured (a timing, a ratio) always runs, so the judge's claims are this run's measurements.

The judge's build (the plugin's `records` option, or BOOK_RECORDS) reads them all
(`ShardRecords.read`), refuses a missing shard, a duplicate page, a stale record and one of
another environment, each naming its pages, and hands the build a `RecordExecutor`: the run
stage's `PageExecutor`, whose page runs are the records. Judge, render and finish are the
build's own, unchanged.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import CancelledError
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bookexec._internal.context import BookContext
from bookexec._internal.discover.blocks import Block
from bookexec._internal.errors import BookError
from bookexec._internal.execute.cache import (
    BlockCache,
    Entry,
    InstalledCode,
    environment_key,
)
from bookexec._internal.execute.eta import RunTimes
from bookexec._internal.execute.model import BlockRun, Note, PageRun
from bookexec._internal.execute.runtime import Runtime
from bookexec._internal.files import write_atomic
from bookexec._internal.goldens.compare import Snapshot
from bookexec._internal.goldens.measured import Claim, Fact
from bookexec._internal.pipeline.drive import RunOptions, executor_for, plan_book, read_only_watch
from bookexec._internal.pipeline.run import PageExecutor, Runs

SCHEMA = 2  # 2: a block's record says whether it came from the block cache
_NAME = re.compile(r"shard-(\d+)-of-(\d+)\.json")


def shard_name(shard: int, shards: int) -> str:
    """The file shard `shard` of `shards` writes its records to."""
    return f"shard-{shard}-of-{shards}.json"


def source_hash(blocks: Iterable[Block]) -> str:
    """What a page's run depends on in the book: each block's id, snippet, code (its snippet
    with every file it includes) and options, in order."""
    digest = hashlib.sha256()
    for block in blocks:
        options = sorted(block.options.items())
        part = json.dumps([block.id, block.snippet, block.code, options], ensure_ascii=False)
        digest.update(part.encode("utf-8") + b"\0")
    return digest.hexdigest()


def environment(context: BookContext, runtime: Runtime) -> str:
    """The environment a run's outputs depend on: the block cache's key (`Executor.env_key`)."""
    settings = context.settings
    key = environment_key(context.root, settings.environ, settings.key())
    return f"{key}{runtime.name}:{runtime.preload}"


def assign(plan: Mapping[str, list[Block]], times: RunTimes, shards: int) -> list[list[str]]:
    """Each shard's pages, in the plan's order: the pages with blocks, heaviest first (a page
    weighs its blocks' last run times; ties by path), each to the lightest shard so far (ties
    by the lower index). A page is never split: its blocks share one session."""
    weights = {
        page: sum(times.last(f"{page}#{block.id}") for block in blocks)
        for page, blocks in plan.items()
        if blocks
    }
    loads = [0.0] * shards
    chosen: dict[str, int] = {}
    for page in sorted(weights, key=lambda name: (-weights[name], name)):
        lightest = min(range(shards), key=lambda i: (loads[i], i))
        chosen[page] = lightest
        loads[lightest] += weights[page]
    return [[page for page in plan if chosen.get(page) == i] for i in range(shards)]


# -- a shard's run ---------------------------------------------------------------------------


class ShardCache(BlockCache):
    """The block cache as a sharded run reads it: an entry that holds a measured value (a
    timing or a ratio) is a miss. Its claims compare what one machine measured under its
    load; read on another run, the judge's verdict would be that machine's."""

    def load(self, block: Block, key: str) -> Entry | None:
        """The entry under this key, unless it holds a measured value (checked by the load)."""
        entry = super().load(block, key)
        if entry is not None and any(fact["kind"] != "exact" for fact in entry["facts"]):
            return None
        return entry


def run_shard(
    context: BookContext,
    runtime: Runtime,
    shard: int,
    shards: int,
    folder: Path,
    say: Callable[[str], object] = print,
    reads_cache: bool = False,
    kept: Iterable[str] = (),
) -> Path:
    """Plan the book, run shard `shard` of `shards`' pages (in parallel, as a build runs them)
    and write their records to `folder`; the file written. Nothing is judged or rendered.
    The book is read-only to the blocks, as in a build (`kept`: the extensions' folders,
    `Extension.read_only`): a block that changes it fails, and its record says so. The
    blocks that ran are stored in the block cache, unless it is off; with `reads_cache` a
    block the cache holds (one that measured nothing) is not run again."""
    stores = context.settings.cache is not False
    if reads_cache and not stores:
        raise BookError("run --block-cache reads the block cache, which the settings turn off")
    plan = plan_book(context)
    watch = read_only_watch(context, kept)
    if watch is not None:
        watch.add(plan.folders(context.root))
    # Read, never written here: every shard of one run must see the same times (the judge
    # writes them, from the records, for the next run).
    mine = assign(plan.pages, RunTimes(context.cache.run_times), shards)[shard - 1]
    say(f"shard {shard}/{shards}: {len(mine)} of {plan.pages_with_blocks()} pages")
    blocks = ShardCache(context.cache.blocks) if stores else None
    options = RunOptions(cache=blocks, cache_reads=reads_cache, watch=watch)
    executor = executor_for(context, runtime, options)
    # The entries are read on other machines (CI's runners), whose installs wrote the same
    # files at other times: the code a block imported is fingerprinted by its bytes.
    executor.installed = InstalledCode(content=True)
    runs = Runs(executor, Snapshot.read(context.golden_dir, ()), execute=True)
    pages: dict[str, Any] = {}
    try:
        for message in executor.killed:
            say(message)
        runs.start({page: plan.pages[page] for page in mine})
        for page in mine:
            ran = runs.wait(page)
            pages[page] = _page_record(plan.pages[page], ran, executor.notes)
            cached = sum(run.cached for run in ran.blocks)
            said = f", {cached} from the block cache" if cached else ""
            say(f"{context.settings.docs}/{page}: {len(ran.blocks) - cached} blocks ran{said}")
    finally:
        executor.close()
    record = {
        "schema": SCHEMA,
        "shard": shard,
        "shards": shards,
        "environment": environment(context, runtime),
        "pages": pages,
        # Trouble that is no one page's (a worker of an earlier run found killed, say).
        "notes": [note.message for note in executor.notes if not note.page],
    }
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / shard_name(shard, shards)
    write_atomic(path, json.dumps(record, ensure_ascii=False, indent=1) + "\n")
    return path


def _page_record(planned: list[Block], ran: PageRun, notes: list[Note]) -> dict[str, Any]:
    ids = {block.id for block in planned}
    return {
        "source": source_hash(planned),
        "backend": ran.backend,
        "devices": ran.devices,
        "notes": [note.message for note in notes if note.page == ran.page],
        "blocks": [_block_record(run, run.block.id in ids) for run in ran.blocks],
    }


def _block_record(run: BlockRun, planned: bool) -> dict[str, Any]:
    record: dict[str, Any] = {
        "id": run.block.id,
        "output": run.output,
        "failure": run.failure,
        "after": run.after,
        "seconds": run.seconds,
        "facts": [vars(fact) for fact in run.facts],
        "claims": [vars(claim) for claim in run.claims],
        "installed": run.installed,
        "setup": list(run.setup) if run.setup else None,
        "cached": run.cached,  # from the block cache: not run by this shard
    }
    if not planned:  # a fence a block printed, or a page's own failure: the block itself
        block = run.block
        record["fence"] = {
            **{name: getattr(block, name) for name in ("index", "line", "snippet", "code")},
            **{"options": block.options, "inline": block.inline, "namespace": block.namespace},
        }
    return record


# -- the judge's build -----------------------------------------------------------------------


@dataclass
class ShardRecords:
    """Every shard's records of one sharded run, checked against the book as planned now."""

    pages: dict[str, dict[str, Any]] = field(default_factory=dict)  # page -> its record
    shards: int = 0

    # A shard per page that recorded it, and the pages recorded in another environment.
    by_page: dict[str, list[int]] = field(default_factory=dict)
    other_env: list[str] = field(default_factory=list)
    files: dict[str, Path] = field(default_factory=dict)  # page -> the file recording it
    runs: dict[str, PageRun] = field(default_factory=dict)  # page -> its run, once checked
    notes: list[Note] = field(default_factory=list)  # the runs' trouble outside any block

    @classmethod
    def read(cls, context: BookContext, runtime: Runtime, folder: Path) -> ShardRecords:
        """The records in `folder`, refused (one BookError, each trouble naming its pages)
        when a shard is missing, a page is recorded twice, a record is stale (its page's
        blocks or snippets changed since it ran, or the book no longer has it, or has a page
        none recorded) or was made in another environment."""
        files = _shard_files(folder)
        found = cls()
        env = environment(context, runtime)
        for (shard, shards), path in sorted(files.items()):
            record = _load(path, shard, shards)
            found.shards = shards
            found.notes += [Note("", str(message)) for message in record["notes"]]
            for page, entry in record["pages"].items():
                found.by_page.setdefault(page, []).append(shard)
                found.pages[page] = entry
                found.files[page] = path
                if record["environment"] != env:
                    found.other_env.append(page)
        missing = [i for i in range(1, found.shards + 1) if (i, found.shards) not in files]
        plan = plan_book(context).pages
        problems = found._refusals(context, plan, missing, folder)
        if problems:
            raise BookError("the shards' records are refused: " + "; ".join(problems))
        for page, entry in found.pages.items():
            found.runs[page] = found._page_run(context, page, plan[page], entry)
        return found

    def _page_run(
        self, context: BookContext, page: str, blocks: list[Block], entry: Any
    ) -> PageRun:
        """A page's run from its record; a damaged record is refused, naming its file."""
        planned = {block.id: block for block in blocks}
        try:
            runs = [_block_run(page, planned, record) for record in entry["blocks"]]
            run = PageRun(page, runs, str(entry["backend"]), int(entry["devices"]))
            self.notes += [Note(page, str(message)) for message in entry["notes"]]
        except (KeyError, TypeError, ValueError, IndexError) as error:
            raise BookError(
                f"the shards' records are refused: {self.files[page]}: the record of "
                f"{context.settings.docs}/{page} is damaged ({type(error).__name__}: {error})"
            ) from None
        return run

    def _refusals(
        self, context: BookContext, plan: dict[str, list[Block]], missing: list[int], folder: Path
    ) -> list[str]:
        """What is wrong with these records, each naming its pages."""
        problems = []
        unrecorded = [page for page, blocks in plan.items() if blocks and page not in self.by_page]
        if missing:
            named = ", ".join(f"{i}/{self.shards}" for i in missing)
            problems.append(
                f"shard {named} is missing in {folder}: no record of "
                f"{_pages(context, unrecorded)}; run ./book run --shard I/{self.shards} for it"
            )
        elif unrecorded:  # a page the book has gained since the shards ran
            problems.append(
                f"no shard recorded {_pages(context, unrecorded)} (a page new since the "
                "shards ran): run every shard again"
            )
        twice = {page: shards for page, shards in self.by_page.items() if len(shards) > 1}
        if twice:
            listed = "; ".join(
                f"{context.settings.docs}/{page} (shards {', '.join(map(str, shards))})"
                for page, shards in sorted(twice.items())
            )
            problems.append(f"duplicate records: a page recorded by two shards: {listed}")
        stale = sorted(
            page
            for page, entry in self.pages.items()
            if page not in plan or entry.get("source") != source_hash(plan[page])
        )
        if stale:
            problems.append(
                f"stale records (the page, its blocks or snippets changed since its shard "
                f"ran): {_pages(context, stale)}; run their shards again"
            )
        if self.other_env:
            problems.append(
                "records made in another environment (Python, packages, the book's path, "
                f"settings or the engine differ): {_pages(context, sorted(self.other_env))}"
            )
        return problems

    def cached(self) -> int:
        """How many recorded blocks came from the block cache (`run --block-cache`)."""
        return sum(
            bool(block["cached"]) for entry in self.pages.values() for block in entry["blocks"]
        )

    def times(self) -> dict[str, float]:
        """Each recorded block's seconds, as `execute.eta.RunTimes` keys them."""
        return {
            f"{page}#{block['id']}": float(block["seconds"])
            for page, entry in self.pages.items()
            for block in entry["blocks"]
        }


def _pages(context: BookContext, pages: list[str]) -> str:
    return ", ".join(f"{context.settings.docs}/{page}" for page in pages) or "no page"


def _shard_files(folder: Path) -> dict[tuple[int, int], Path]:
    """The shards' files in `folder`, by (I, N); refused when none, or of different N."""
    files = {}
    if folder.is_dir():
        for path in folder.iterdir():
            if found := _NAME.fullmatch(path.name):
                shard, shards = int(found[1]), int(found[2])
                if not 1 <= shard <= shards:
                    raise BookError(f"the shards' records are refused: {path} names no shard")
                files[(shard, shards)] = path
    if not files:
        raise BookError(
            f"the shards' records are refused: {folder} holds no shard-I-of-N.json; "
            "run ./book run --shard I/N for each shard first"
        )
    counts = sorted({shards for _, shards in files})
    if len(counts) > 1:
        raise BookError(
            f"the shards' records are refused: {folder} mixes runs of "
            f"{' and '.join(map(str, counts))} shards; keep one run's records"
        )
    return files


def _load(path: Path, shard: int, shards: int) -> dict[str, Any]:
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise BookError(
            f"the shards' records are refused: {path} is unreadable ({error})"
        ) from None
    if (
        not isinstance(record, dict)
        or record.get("schema") != SCHEMA
        or (record.get("shard"), record.get("shards")) != (shard, shards)
        or not isinstance(record.get("pages"), dict)
        or not isinstance(record.get("notes"), list)
    ):
        raise BookError(
            f"the shards' records are refused: {path} is not shard {shard}/{shards}'s record "
            f"of this engine (schema {SCHEMA})"
        )
    return record


class RecordExecutor:
    """The run stage's executor of the judge's build: a page's run is its shard's record. A
    page no record covers (one an extension scans itself, a lab) runs on `fallback`'s
    executor, made when first needed."""

    cache: BlockCache | None = None

    def __init__(
        self,
        records: ShardRecords,
        fallback: Callable[[], PageExecutor],
    ) -> None:
        self.records = records
        self.jobs = 1
        self.notes: list[Note] = list(records.notes)
        self._fallback = fallback
        self._other: PageExecutor | None = None

    def submit(self, page: str, blocks: list[Block]) -> object:
        """The page's run from its record (checked when read); another page runs."""
        if page in self.records.runs:
            return self.records.runs[page]
        if self._other is None:
            self._other = self._fallback()
        return self._other.submit(page, blocks)

    def ready(self, page: str) -> bool:
        """Always: a record is there, and a page run here is waited for."""
        return True

    def pending(self) -> list[str]:
        """None: no page shows its goldens while it runs."""
        return []

    def page(self, page: str) -> PageRun:
        """The page's recorded run, or the run of a page it ran itself."""
        if page in self.records.runs:
            return self.records.runs[page]
        if self._other is None:
            raise CancelledError()
        ran = self._other.page(page)
        self._heard()
        return ran

    def _heard(self) -> None:
        """The records' notes, then what the executor of the pages run here has said so far
        (its pages' threads say it at any time): in place, as the build reads the list."""
        said = self._other.notes if self._other is not None else []
        self.notes[:] = [*self.records.notes, *said]

    def close(self) -> None:
        """Every page has been asked for: the workers of the pages run here end."""
        if self._other is not None:
            self._other.close()
        self._heard()

    def stop(self) -> None:
        """Stop the runs of the pages run here."""
        if self._other is not None:
            self._other.stop()


def _block_run(page: str, planned: dict[str, Block], record: dict[str, Any]) -> BlockRun:
    block = planned.get(record["id"])
    if block is None:
        fence = record["fence"]
        docs = next(iter(planned.values())).docs if planned else "docs"
        block = Block(
            page,
            fence["index"],
            fence["line"],
            record["id"],
            fence["snippet"],
            fence["code"],
            dict(fence["options"]),
            docs=docs,
            inline=fence["inline"],
            namespace=fence["namespace"],
        )
    setup = record["setup"]
    return BlockRun(
        block=block,
        output=record["output"],
        failure=record["failure"],
        seconds=float(record["seconds"]),
        facts=[Fact(**fact) for fact in record["facts"]],
        claims=[Claim(**claim) for claim in record["claims"]],
        after=record["after"],
        installed=record["installed"],
        setup=(setup[0], setup[1]) if setup else None,
        cached=bool(record["cached"]),
    )
