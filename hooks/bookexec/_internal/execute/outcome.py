"""A block's outcome: a worker's raw result judged against what the block's fence declared
(`raises`, `limit`, `memory`), and the build's secrets masked in what it holds.
"""

from __future__ import annotations

from dataclasses import replace

from bookexec._internal import privacy
from bookexec._internal.discover.blocks import Block
from bookexec._internal.execute import protocol
from bookexec._internal.execute.limits import (
    OUT_OF_MEMORY,
    Limits,
    block_timeout,
    memory_fix,
    timeout_fix,
)
from bookexec._internal.execute.model import BlockRun
from bookexec._internal.execute.protocol import BlockResult, BlockStatus
from bookexec._internal.goldens import measured


def _out_of_memory(error: protocol.BlockError) -> bool:
    return (
        error.memory
        or error.type in ("MemoryError", "_ArrayMemoryError")
        or any(sign in error.shown for sign in OUT_OF_MEMORY)
    )


def judge(block: Block, raw: BlockResult, limits: Limits | None = None) -> BlockRun:
    """Turn a worker's raw result into what the page shows, or a failure that stops the build."""
    limits = limits or Limits()
    run = BlockRun(block=block, output=raw.output, seconds=raw.seconds, raw=raw)
    band = float(block.options.get("band", measured.DEFAULT_BAND))
    run.facts, run.claims = measured.from_worker(raw.facts, raw.claims, band)
    declared = block.options.get("raises")
    error = raw.error
    if raw.status is BlockStatus.FLOODED:
        limit = block.options.get("limit", limits.output)
        at = f", line {raw.flood_line}" if raw.flood_line else ""
        run.failure = (
            f"{block.where}{at}: output flooded past {limit} characters; stopped. "
            f'Print less, or raise limit="..." on the fence if the page should show it all'
        )
        return run
    timeout = block_timeout(block, limits)
    if raw.seconds > timeout:  # it ended within the build's grace (`KILL_GRACE`): still late
        run.failure = (
            f"{block.where}: ran {raw.seconds:.1f} s, past its timeout of {timeout:g} s; "
            + timeout_fix(limits)
        )
        return run
    if error is None:
        if declared:
            run.failure = (
                f'{block.where}: declared raises="{declared}" but nothing was raised; '
                "make the snippet raise it, or remove raises= from the fence"
            )
        return run
    at = f", line {error.line}" if error.line else ""
    if declared and declared in (error.type, error.qualified):
        run.output = run.output + error.shown
        return run
    expected = f' (declared raises="{declared}")' if declared else ""
    fix = (
        f'fix the snippet, or declare raises="{error.type}" on the fence '
        "if the page means to show this error"
    )
    if _out_of_memory(error):
        fix = f"it ran out of memory: {memory_fix(block, limits)}"
    run.failure = (
        f"{block.where}{at}: raised {error.qualified}{expected}; {fix}\n{error.traceback}".rstrip()
    )
    return run


def masked(run: BlockRun, masker: privacy.Masker) -> BlockRun:
    """The run with every secret of the build replaced by `***` (`privacy.Masker`): its output,
    its failure (error text, traceback, worker log tail) and what it recorded. Done where a
    run is made, before anything compares, caches, stores or shows it."""
    if not masker.secrets:
        return run

    def name(text: str) -> str:
        return masker.mask(text).replace(privacy.MASK, "masked")

    run.output = masker.mask(run.output)
    run.failure = masker.mask(run.failure) if run.failure else run.failure
    run.facts = [replace(f, name=name(f.name), value=masker.value(f.value)) for f in run.facts]
    run.claims = [
        replace(c, left=name(c.left), right=masker.value(c.right), says=masker.mask(c.says))
        for c in run.claims
    ]
    if run.raw is not None:
        run.raw.output = masker.mask(run.raw.output)
        if run.raw.error is not None:
            run.raw.error.shown = masker.mask(run.raw.error.shown)
            run.raw.error.traceback = masker.mask(run.raw.error.traceback)
    return run
