"""What a block may do: its time, output and memory limits (the build's, which
`bookexec._internal.settings` reads from the plugin's options and the environment, or its fence's
own), the workers' hash seed, and whether a block runs alone (`fresh`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field

from bookexec._internal.discover.blocks import Block
from bookexec._internal.discover.options import memory_words, parse_bool, parse_memory
from bookexec._internal.errors import BookError


def default_memory() -> int:
    """A worker's memory limit unless told otherwise: the machine's memory shared by one worker
    per core and one share more for everything else (7.75 GiB on 2 cores and 24 GiB), so the
    workers together can never make the machine unusable."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError):
        return 8 * 2**30
    share = total // ((os.cpu_count() or 1) + 1)
    return max(2**30, share - share % 2**28)  # a round size: in quarters of a GiB


# The plugin's `limits` defaults (`bookexec._internal.plugin.LimitsConfig` declares them from
# these).
DEFAULT_TIMEOUT = 120.0  # seconds
DEFAULT_OUTPUT = 200000  # characters


@dataclass(frozen=True)
class Limits:
    """The defaults of the `timeout`, `limit` and `memory` fence options, read when a build
    starts."""

    timeout: float = DEFAULT_TIMEOUT  # seconds before a block is killed
    output: int = DEFAULT_OUTPUT  # characters a block may print
    memory: int = field(default_factory=default_memory)  # bytes of data a worker may hold


def block_memory(block: Block, limits: Limits) -> int:
    """The bytes this block's worker may hold: its fence's `memory`, or the build's default."""
    text = block.options.get("memory")
    size = parse_memory(text) if text else None
    return size or limits.memory


def memory_fix(block: Block, limits: Limits) -> str:
    """What a block that ran out of memory is told to do: its limit, and where to raise it."""
    return (
        f"its memory limit is {memory_words(block_memory(block, limits))}: use less, or raise "
        f'memory="..." on the fence (default {memory_words(limits.memory)}: the plugin\'s '
        "limits: memory, or BOOK_MEMORY_LIMIT)"
    )


# What running out of memory looks like from Python, numpy and XLA.
OUT_OF_MEMORY = ("RESOURCE_EXHAUSTED", "Out of memory", "std::bad_alloc", "Cannot allocate memory")


def is_fresh(block: Block) -> bool:
    """The block runs alone in a new interpreter (`fresh` on its fence)."""
    return parse_bool(block.options.get("fresh", "false"), block.where)


def block_timeout(block: Block, limits: Limits) -> float:
    """The seconds this block may run: its fence's `timeout`, or the build's default."""
    return limits.timeout if block.timeout is None else block.timeout


# Seconds past its timeout the build waits for a block's result before it kills the worker:
# after the block the worker stops what it started and sends its result, which on a busy
# machine takes a moment. A block that ends in them still fails, by its own clock
# (`outcome.judge`): the limit is the timeout, exactly.
KILL_GRACE = 5.0


def timeout_fix(limits: Limits) -> str:
    """How to mend a block that ran past its timeout."""
    return (
        'make it faster, or raise timeout="..." on the fence '
        f"(default {limits.timeout:g} s: the plugin's limits: timeout, or BOOK_BLOCK_TIMEOUT)"
    )


def hash_seed(environ: Mapping[str, str]) -> str:
    """The workers' PYTHONHASHSEED: BOOK_HASH_SEED, else the build's PYTHONHASHSEED, else 0.

    Outputs must not depend on it; the determinism test runs the book under two seeds (with
    BOOK_HASH_SEED) to prove it. A BookError names a value Python would refuse."""
    for name in ("BOOK_HASH_SEED", "PYTHONHASHSEED"):
        text = environ.get(name, "").strip()
        if not text:
            continue
        if text != "random" and not (text.isdigit() and int(text) <= 4294967295):
            raise BookError(
                f"{name}={text!r} is not a hash seed; set it to an integer from 0 to "
                "4294967295, or to random, or unset it (default 0)"
            )
        return text
    return "0"
