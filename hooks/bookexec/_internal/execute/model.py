"""The run model every layer reads: what one block did (`BlockRun`), what one page's blocks did
(`PageRun`), and trouble outside any block (`Note`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bookexec._internal.discover.blocks import Block
from bookexec._internal.execute.protocol import BlockResult
from bookexec._internal.goldens.measured import Claim, Fact


@dataclass
class BlockRun:
    """What one block did, judged against what its fence declared."""

    block: Block
    output: str = ""  # raw text the reader would have seen, before normalisation
    failure: str | None = None  # why the block failed, naming page, block, snippet and line
    seconds: float = 0.0
    facts: list[Fact] = field(default_factory=list)
    claims: list[Claim] = field(default_factory=list)
    cached: bool = False  # this output came from the author's cache, not from running
    after: str | None = None  # an earlier block of the page that failed first
    # The code it ran with beyond its own: [module, its files or folders, their fingerprint]
    # for each top-level module outside the standard library (`execute.cache.InstalledCode`).
    installed: list[list[Any]] = field(default_factory=list)
    # The backend and device count this block ran with, where its own process said so (a
    # `fresh` block's, or a cached block's entry); None: the page's (`PageRun.backend`).
    setup: tuple[str, int] | None = field(default=None, compare=False)
    # The worker's own result (masked too), for a caller that records an error as it was
    # raised (`bookexec.book.jax_changes`); None when cached or when the worker failed.
    raw: BlockResult | None = field(default=None, compare=False, repr=False)


@dataclass
class PageRun:
    """What one page's blocks did, and the backend and devices they ran on."""

    page: str
    blocks: list[BlockRun] = field(default_factory=list)
    backend: str = "none"
    devices: int = 0  # how many devices the backend had; reported after the last block

    def setups(self) -> list[tuple[str, int, list[BlockRun]]]:
        """Each backend and device count the page's blocks ran with, and the blocks that ran
        with it; the page's own first."""
        found: dict[tuple[str, int], list[BlockRun]] = {(self.backend, self.devices): []}
        for run in self.blocks:
            found.setdefault(run.setup or (self.backend, self.devices), []).append(run)
        return [(backend, devices, runs) for (backend, devices), runs in found.items() if runs]

    @property
    def failure(self) -> str | None:
        """The page's first failure, or None."""
        return next((run.failure for run in self.blocks if run.failure), None)


@dataclass(frozen=True)
class Note:
    """Trouble outside any block (a page's worker that could not start or end, a change to the
    book no block can have made), reported with the build's failures. `page` is the page it
    belongs to, "" when it is no one page's; `message` names the place."""

    page: str
    message: str

    def __str__(self) -> str:
        """The message: a note said as it was before it had a page."""
        return self.message


NO_BACKEND = ("none", 0)  # (backend, devices) of a page with no run to say otherwise
