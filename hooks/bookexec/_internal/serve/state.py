"""What the serve process hands each build it starts: the values a build under `mkdocs build`
never has, in one place, so that a build's constructor takes them as one."""

from __future__ import annotations

from dataclasses import dataclass, field

from bookexec._internal.discover.blocks import Block, ShellFence
from bookexec._internal.discover.memo import ScanMemo, TextMemo
from bookexec._internal.goldens.compare import GoldenReads
from bookexec._internal.pipeline.finish import Ending
from bookexec._internal.pipeline.judge import SayNow


@dataclass(frozen=True)
class ServeState:
    """One build's part of the serve (`Engine.on_config`); the defaults are a plain build's."""

    background: bool = False  # its pages' blocks run behind them (`serve.background`)
    browser_review: tuple[str, str] | None = None  # the browser review's (address, token)
    # Under `--dirty`: only the pages entered are checked for blocks never rendered; the files
    # the page graph reads and the config's text, read as the build began (`serve.rebuild`).
    only_entered: bool = False
    files_at_start: dict[str, int] = field(default_factory=dict)
    config_text: str = ""
    # Where the warnings a strict build fails on go, to be shown, not counted (the plugin's).
    warnings: list[str] = field(default_factory=list)
    # What the stages find, said as they find it; the serve's own end of each build.
    say_now: SayNow | None = None
    ending: Ending | None = None
    # The serve's scans of the pages, reused where nothing they read has changed
    # (`discover.memo`); None: every page is scanned afresh.
    scans: ScanMemo[tuple[list[Block], list[ShellFence]]] | None = None
    # The serve's reads of the goldens, likewise (`goldens.compare.Snapshot.read`).
    golden_reads: GoldenReads | None = None
    # The serve's reads of the files the page graph digests (`Build.page_inputs`), likewise.
    texts: TextMemo | None = None
