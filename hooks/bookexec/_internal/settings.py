"""Every setting of a build, read once when it starts: the plugin's options, then the environment.

`mkdocs.yml` sets the plugin's options (`bookexec._internal.plugin`); an environment variable, where
one is set, overrides its option for that build (`GOLDEN=update`, `BOOK_CACHE=off`...). Nothing
else in the engine reads the environment: the build's `Settings` are handed down, and the
lower layers take plain arguments. The environment itself travels with them, for what is not a
setting: the workers' environment and the build's secrets (`bookexec._internal.privacy`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from bookexec._internal.discover.blocks import ANYWHERE, Reading
from bookexec._internal.discover.options import (
    MARKDOWN_EXEC,
    MAX_LIMIT,
    MAX_MEMORY,
    MAX_TIMEOUT,
    UNKNOWN_WARN,
    Number,
    memory_words,
    parse_bool,
    parse_memory,
    parse_number,
    parse_switch,
)
from bookexec._internal.errors import BookError
from bookexec._internal.execute.limits import (
    DEFAULT_OUTPUT,
    DEFAULT_TIMEOUT,
    Limits,
    default_memory,
    hash_seed,
)
from bookexec._internal.goldens import masks
from bookexec._internal.goldens.masks import DEFAULTS, Mask
from bookexec._internal.goldens.store import MODES, update_command

CACHE_CHOICES = ("auto", "on", "off")


@dataclass(frozen=True)
class Serve:
    """Under `mkdocs serve` (`bookexec._internal.serve.background`)."""

    background: bool = True  # pages at once from goldens, their blocks run behind them
    refresh: float = 2.0  # least seconds between two reloads while blocks run
    wait: float = 3.0  # a build waits for the one run under way this close to its end


@dataclass(frozen=True)
class Settings:
    """One build's settings."""

    mode: str = "check"  # GOLDEN: check or update
    only: str = ""  # GOLDEN_ONLY: PAGE or PAGE#BLOCK, the one page or block an update writes
    launcher: str = ""  # the book's command line (`./book`): messages name its commands
    execute: bool = True  # BOOK_EXEC=off shows each block's golden and runs nothing
    cache: bool | None = None  # BOOK_CACHE: on, off, or None for auto (see `block_cache`)
    jobs: int = 0  # pages run at once; 0: one per core
    limits: Limits = field(default_factory=Limits)
    hash_seed: str = "0"  # the workers' PYTHONHASHSEED
    slow: float = 5.0  # seconds past which a block's line says it was slow
    serve: Serve = field(default_factory=Serve)
    glossary: str = ""  # the glossary page whose terms other pages mark (empty: none)
    glossary_skip: tuple[str, ...] = ()  # pages whose terms are not marked, as globs
    glossary_ignore: tuple[str, ...] = ()  # phrases never marked as a term's use
    auto: tuple[str, ...] = ()  # markdown-exec's MARKDOWN_EXEC_AUTO: languages run without exec
    goldens: str = "goldens"  # the golden folder, relative to the book's root (mkdocs.yml's)
    snippets: str = ANYWHERE  # the snippet rule (`discover.blocks.SNIPPET_RULES`)
    fences: str = MARKDOWN_EXEC  # how executed fences behave (`discover.options.FENCES`)
    docs: str = "docs"  # MkDocs' docs_dir, relative to the root where it is inside: messages
    builder: str = "mkdocs"  # the command line building the book (mkdocs, properdocs)
    shown_line_length: int = 0  # the most characters a shown line may have (0: no limit)
    # The engine's default rules then the author's (`goldens.masks`; `default_masks: false`:
    # the author's only).
    masks: tuple[Mask, ...] = DEFAULTS
    bases: tuple[str, ...] = ("",)  # pymdownx.snippets' base_path, from the root (`bases`)
    unknown_options: str = UNKNOWN_WARN  # an option no fence reads: warn, or error
    # BOOK_RECORDS: the folder of a sharded run's records, relative to the root, which the build
    # reads as its runs (`pipeline.records`); empty: the build runs its blocks.
    records: str = ""
    # The build's environment as it was when it started: not a setting, see the docstring.
    environ: Mapping[str, str] = field(
        default_factory=lambda: MappingProxyType({}), repr=False, compare=False
    )

    def block_cache(self, serving: bool) -> bool:
        """The block cache: `auto` means under `mkdocs serve` only, so a build (CI's) runs every
        block; the update mode never reads it, whatever the setting (`stores_blocks`)."""
        if self.cache is False or self.mode == "update":
            return False
        return serving if self.cache is None else self.cache

    def stores_blocks(self, serving: bool) -> bool:
        """Whether the build stores its blocks' outputs: whenever it reads them, and in the
        update mode too unless the cache is off. An update's run is a real one, so the check
        or the serve after it need not run the book again."""
        return self.block_cache(serving) or (self.mode == "update" and self.cache is not False)

    def lab_cache(self) -> bool:
        """The labs' render cache: on unless the cache is off. Unlike a block's output, a lab's
        HTML is a pure function of its executed copy, template and renderer, so `auto` keeps it
        in a build too."""
        return self.cache is not False

    def key(self) -> str:
        """The settings that can change what a block prints, for the block cache's key: the
        fences decide which globals a block runs in."""
        limits = self.limits
        return f"timeout={limits.timeout:g} output={limits.output} memory={limits.memory} " + (
            f"hash_seed={self.hash_seed} fences={self.fences}"
        )

    def reading(self) -> Reading:
        """How the book's pages are read (`discover.blocks.scan_page`)."""
        return Reading(
            *(self.snippets, self.fences, self.docs, self.shown_line_length),
            bases=self.bases,
            unknown=self.unknown_options,
        )


def read(
    options: Mapping[str, Any],
    environ: Mapping[str, str],
    docs: str = "docs",
    builder: str = "mkdocs",
) -> Settings:
    """The settings of a build from the plugin's options (missing ones take their defaults)
    and the environment, whose variables override them; `docs` is MkDocs' docs_dir as the
    messages name it, `builder` the command line building the book. A bad variable is a
    BookError naming it; bad options never get here (MkDocs' config validation names them)."""
    env = {name: value for name, value in environ.items()}
    serve = options.get("serve") or {}
    terms = options.get("glossary") or {}
    mode = env.get("GOLDEN", "") or "check"
    if mode not in MODES:
        raise BookError(f"GOLDEN={mode!r} is not a mode; use GOLDEN=check or GOLDEN=update")
    only = env.get("GOLDEN_ONLY", "").strip()
    if only and mode != "update":
        command = update_command(str(options.get("launcher") or builder), "PAGE[#BLOCK]")
        raise BookError(
            f"GOLDEN_ONLY={only!r} names what an update writes; it needs GOLDEN=update ({command})"
        )
    records = env.get("BOOK_RECORDS", "").strip() or str(options.get("records") or "")
    if only and records:
        raise BookError(
            f"GOLDEN_ONLY={only!r} runs one page; a build over a sharded run's records "
            f"(BOOK_RECORDS={records!r}) judges the whole book: unset one of them"
        )
    cache = _cache(options.get("cache", "auto"))
    if env.get("BOOK_CACHE", "").strip():
        cache = parse_switch(env["BOOK_CACHE"], "BOOK_CACHE")
    defaults = Serve()
    return Settings(
        mode=mode,
        only=only,
        launcher=str(options.get("launcher") or ""),
        execute=_switch(env, "BOOK_EXEC", bool(options.get("execute", True))),
        cache=cache,
        jobs=_jobs(env, int(options.get("jobs") or 0)),
        limits=_limits(options.get("limits") or {}, env),
        hash_seed=hash_seed(env),
        slow=_seconds(env, "BOOK_SLOW", _or(options.get("slow"), 5.0)),
        serve=Serve(
            background=_switch(env, "BOOK_SERVE_BACKGROUND", bool(serve.get("background", True))),
            refresh=_seconds(
                env, "BOOK_SERVE_REFRESH", _or(serve.get("refresh"), defaults.refresh)
            ),
            wait=_seconds(env, "BOOK_SERVE_WAIT", _or(serve.get("wait"), defaults.wait)),
        ),
        glossary=str(terms.get("page") or ""),
        glossary_skip=tuple(str(pattern) for pattern in terms.get("skip") or ()),
        glossary_ignore=tuple(str(phrase) for phrase in terms.get("ignore") or ()),
        auto=tuple(
            name.strip() for name in env.get("MARKDOWN_EXEC_AUTO", "").split(",") if name.strip()
        ),
        goldens=str(options.get("goldens") or Settings.goldens),
        snippets=str(options.get("snippets") or Settings.snippets),
        fences=str(options.get("fences") or Settings.fences),
        docs=docs,
        builder=builder,
        shown_line_length=int(options.get("shown_line_length") or 0),
        masks=masks.rules(options.get("masks") or (), bool(options.get("default_masks", True))),
        unknown_options=str(options.get("unknown_options") or UNKNOWN_WARN),
        records=records,
        environ=MappingProxyType(env),
    )


def bases(mdx_configs: Mapping[str, Any], root: Path) -> tuple[str, ...]:
    """pymdownx.snippets' `base_path` folders (its default: the working folder) relative to
    the book's root, in order: where an include's file is looked for, as that extension looks.
    A folder outside the book is left out: no file there is the book's to show or run."""
    written = (mdx_configs.get("pymdownx.snippets") or {}).get("base_path", ["."])
    found: list[str] = []
    # One folder or a list; each a path, or MkDocs' `!relative` (a path-like).
    one = isinstance(written, (str, os.PathLike))
    for folder in [written] if one else list(written):
        # pymdownx reads a relative base_path from the working folder, as this does.
        path = Path(os.path.realpath(os.fspath(folder)))
        if path == root or root in path.parents:
            relative = path.relative_to(root).as_posix()
            found.append("" if relative == "." else relative)
    return tuple(found) or ("",)


def _limits(options: Mapping[str, Any], env: Mapping[str, str]) -> Limits:
    """The blocks' limits: the plugin's `limits` (their defaults where unset), each under its
    environment variable (BOOK_BLOCK_TIMEOUT, BOOK_OUTPUT_LIMIT, BOOK_MEMORY_LIMIT)."""
    timeout = float(options.get("timeout") or DEFAULT_TIMEOUT)
    output = int(options.get("output") or DEFAULT_OUTPUT)
    memory = int(options.get("memory") or default_memory())
    return Limits(
        timeout=_bounded(env, "BOOK_BLOCK_TIMEOUT", float, timeout, "seconds", MAX_TIMEOUT),
        output=_bounded(env, "BOOK_OUTPUT_LIMIT", int, output, "characters", MAX_LIMIT),
        memory=_memory(env, memory),
    )


def _bounded(
    env: Mapping[str, str],
    name: str,
    kind: Callable[[str], Number],
    default: Number,
    unit: str,
    most: int,
) -> Number:
    return parse_number(
        env,
        name,
        kind,
        lambda value: 0 < value <= most,  # the fence options' range (discover.options)
        default,
        f"a positive number of {unit}, at most {most}",
    )


def _memory(env: Mapping[str, str], default: int) -> int:
    text = env.get("BOOK_MEMORY_LIMIT", "").strip()
    if not text:
        return default
    size = parse_memory(text)
    if size is None or size > MAX_MEMORY:
        raise BookError(
            f"BOOK_MEMORY_LIMIT={text!r} is not a size; set it to e.g. 8G or 512M (at most "
            f"{memory_words(MAX_MEMORY)}), "
            f"or unset it (default {memory_words(default)})"
        )
    return size


def _cache(value: str | bool) -> bool | None:
    if isinstance(value, bool):  # YAML reads a bare on/off as a boolean
        return value
    return parse_switch(value, "cache")


def _or(value: Any, default: float) -> float:
    return default if value is None else float(value)


def _switch(env: Mapping[str, str], name: str, default: bool) -> bool:
    text = env.get(name, "").strip()
    return parse_bool(text, name) if text else default


def _seconds(env: Mapping[str, str], name: str, default: float) -> float:
    return parse_number(env, name, float, lambda v: v >= 0, default, "a number of seconds")


def _jobs(env: Mapping[str, str], default: int) -> int:
    return parse_number(env, "BOOK_JOBS", int, lambda v: v >= 0, default, "a whole number of pages")
