"""The executed book as an MkDocs plugin: `plugins: [executed-book]` in a book's `mkdocs.yml`.

Registered under the `mkdocs.plugins` entry points (pyproject.toml), so any book that installs
this package enables it by name, under MkDocs or ProperDocs. Its options are typed: a wrong
value is MkDocs' configuration error, naming the option. The plugin defines `on_startup`, so
MkDocs keeps this one instance for a whole `mkdocs serve`; the `Engine`, and with it the serve
process's background executor, lives on it. Each build's settings are read once, in
`on_config`, from the options and the environment (`bookexec._internal.settings`).

The runtime and the extensions are named by dotted path, so that a book brings its own
(`tests/sites/plain` uses the plain Python runtime and none of this book's extensions). The
defaults are a markdown-exec book's: replacing `markdown-exec` with `executed-book` in its
`plugins:` is all it takes (`MarkdownExecStandIn`, `bookexec._internal.render.mdexec`).
"""

from __future__ import annotations

import importlib
import importlib.util
import logging
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
import jinja2
import markdown_exec
from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority

from bookexec._internal import settings
from bookexec._internal.context import NAME, from_config
from bookexec._internal.discover.blocks import ANYWHERE, SHELL_LANGUAGES, SNIPPET_RULES
from bookexec._internal.discover.options import (
    FENCES,
    MARKDOWN_EXEC,
    MAX_LIMIT,
    MAX_MEMORY,
    MAX_TIMEOUT,
    UNKNOWN_CHOICES,
    UNKNOWN_WARN,
    memory_words,
    parse_memory,
)
from bookexec._internal.engine import Engine
from bookexec._internal.execute.limits import DEFAULT_OUTPUT, DEFAULT_TIMEOUT
from bookexec._internal.execute.runtime import Runtime
from bookexec._internal.extension import Extension
from bookexec._internal.goldens import masks
from bookexec._internal.logs import LogFilter
from bookexec._internal.serve.session import unwatched
from bookexec.guard import LANGUAGES, SUPERFENCES
from bookexec.guard import PLUGIN as MARKDOWN_EXEC_PLUGIN

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.livereload import LiveReloadServer
    from mkdocs.structure.files import Files
    from mkdocs.structure.pages import Page

# markdown-exec's `ansi` option: link its ANSI style when the package that colours ANSI output
# is there ("auto"), always ("required", true: a build without the package fails) or never.
ANSI_CHOICES = ("auto", "off", "required", True, False)
JAX_RUNTIME = "bookexec.JaxRuntime"
PYTHON_RUNTIME = "bookexec.PythonRuntime"


def _resolve(path: str) -> Any:
    module, _, name = path.rpartition(".")
    return getattr(importlib.import_module(module), name)


class DottedPath(base.BaseConfigOption[str]):
    """`package.module.name` of an object the plugin makes; checked by importing it, and a
    class by what it must be a subclass of (`kind`)."""

    def __init__(self, kind: type | None = None, default: str | None = None) -> None:
        super().__init__()
        self.kind = kind
        self.default = default

    def run_validation(self, value: object) -> str:
        """The path, once it imports and names something callable."""
        if not isinstance(value, str) or "." not in value.strip(". "):
            raise base.ValidationError(
                f"expected a dotted path such as {JAX_RUNTIME}, got {value!r}"
            )
        try:
            found = _resolve(value)
        except (ImportError, AttributeError) as error:
            raise base.ValidationError(f"cannot import {value}: {error}") from None
        if not callable(found):
            raise base.ValidationError(f"{value} is not a class or a function")
        if self.kind and isinstance(found, type) and not issubclass(found, self.kind):
            # Named by its public spelling (`bookexec.Runtime`), not its internal module.
            raise base.ValidationError(f"{value} is not a bookexec.{self.kind.__name__}")
        if missing := _missing(getattr(found, "requires", ())):
            raise base.ValidationError(
                f"{value} needs the package {missing}, which is not installed: install it "
                f"(pip install {missing}), or name another runtime, such as {PYTHON_RUNTIME}"
            )
        return value


def _missing(packages: Iterable[str]) -> str | None:
    """The first package a runtime needs that cannot be imported; found without importing
    it (a book without JAX never imports JAX)."""
    for package in packages:
        try:
            if importlib.util.find_spec(package) is None:
                return package
        except (ImportError, ValueError):
            return package
    return None


class Folder(base.BaseConfigOption[str]):
    """A folder relative to the config file's, inside the book: no absolute path, no `..`."""

    def __init__(self, default: str) -> None:
        super().__init__()
        self.default = default

    def run_validation(self, value: object) -> str:
        """The folder, as written, with `/` between its parts."""
        text = value.strip().removesuffix("/") if isinstance(value, str) else ""
        parts = text.split("/")
        if text.startswith(("/", "~")) or any(part in ("", ".", "..") for part in parts):
            raise base.ValidationError(
                f"expected a folder inside the book, relative to mkdocs.yml, such as "
                f"{self.default}; got {value!r}"
            )
        return text


class Number(base.BaseConfigOption[float]):
    """A number of `unit`, positive (or, with `zero`, at least 0), and at most `most`."""

    def __init__(
        self,
        default: float,
        unit: str,
        zero: bool = False,
        whole: bool = False,
        most: float | None = None,
    ):
        super().__init__()
        self.default = default
        self.unit, self.zero, self.whole, self.most = unit, zero, whole, most

    def run_validation(self, value: object) -> float:
        """The number; anything else is an error saying what is expected."""
        # A bool is an int to Python, but YAML's `yes` is no number.
        number = value if isinstance(value, int | float) and not isinstance(value, bool) else None
        if self.whole and not isinstance(number, int):
            number = None  # 2.5 pages at once is no whole number
        in_range = self.most is None or (number is not None and number <= self.most)
        if number is not None and (number >= 0 if self.zero else number > 0) and in_range:
            return number
        least = "0 or more" if self.zero else "more than 0"
        if self.most is not None:
            least += f" and at most {self.most:g}"
        kind = "a whole number" if self.whole else "a number"
        raise base.ValidationError(
            f"expected {kind} of {self.unit}, {least}, e.g. {self.default:g}; got {value!r}"
        )


class Memory(base.BaseConfigOption[int | None]):
    """A size such as 8G, 512M or 1.5GiB (powers of 1024), or a number of bytes."""

    def run_validation(self, value: object) -> int | None:
        """The size in bytes; None (the default: the machine's memory shared per core)."""
        if value is None:
            return None
        size = None if isinstance(value, bool) else parse_memory(str(value))
        if size is None or size > MAX_MEMORY:
            raise base.ValidationError(
                f"expected a size such as 8G or 512M, got {value!r}; a size may be at most "
                f"{memory_words(MAX_MEMORY)}"
            )
        return size


class CacheSwitch(base.BaseConfigOption[str]):
    """auto (the default), on or off; YAML reads a bare on/off as a boolean, taken too."""

    def __init__(self) -> None:
        super().__init__()
        self.default = "auto"

    def run_validation(self, value: object) -> str:
        """One of `settings.CACHE_CHOICES`."""
        if isinstance(value, bool):
            return "on" if value else "off"
        if isinstance(value, str) and value.strip().lower() in settings.CACHE_CHOICES:
            return value.strip().lower()
        choices = ", ".join(settings.CACHE_CHOICES)
        raise base.ValidationError(f"expected one of {choices}; got {value!r}")


class LimitsConfig(base.Config):
    """Each block's limits, unless its fence sets its own (`timeout`, `limit`, `memory`)."""

    timeout = Number(DEFAULT_TIMEOUT, "seconds", most=MAX_TIMEOUT)
    output = Number(DEFAULT_OUTPUT, "characters", whole=True, most=MAX_LIMIT)
    memory = Memory()


class ServeConfig(base.Config):
    """Under `mkdocs serve` (`bookexec._internal.serve.background`)."""

    background = c.Type(bool, default=True)
    refresh = Number(2.0, "seconds", zero=True)
    wait = Number(3.0, "seconds", zero=True)


class GlossaryConfig(base.Config):
    """Hover definitions (`bookexec._internal.render.glossary`)."""

    page = c.Type(str, default="")  # the glossary page, e.g. glossary.md; empty: no hovers
    skip = c.ListOfItems(c.Type(str), default=[])  # pages left unmarked, as globs: guide/*
    ignore = c.ListOfItems(c.Type(str), default=[])  # phrases never marked: "cache key"


class Pattern(base.BaseConfigOption[str]):
    """A regular expression (Python's `re`), refused at once when it does not compile."""

    def run_validation(self, value: object) -> str:
        """The pattern as written."""
        if not isinstance(value, str) or not value:
            raise base.ValidationError(f"expected a regular expression, got {value!r}")
        if found := masks.problem(value, ""):
            raise base.ValidationError(found)
        return value


class Replacement(c.Type[str]):
    """A mask's replacement (`re.sub`'s template), which must fit the rule's pattern: `\\2`
    needs a second group."""

    def __init__(self) -> None:
        super().__init__(str)

    def post_validation(self, config: base.Config, key_name: str) -> None:
        """Checked once the pattern is."""
        if found := masks.problem(config["pattern"], config[key_name]):
            raise base.ValidationError(found)


class MaskConfig(base.Config):
    """One normalisation rule of the author's (`bookexec._internal.goldens.masks`)."""

    pattern = Pattern()  # a regular expression
    replace = Replacement()  # what each match becomes; \1 keeps a group
    pages = c.ListOfItems(c.Type(str), default=[])  # globs of pages; empty: every page
    blocks = c.ListOfItems(c.Type(str), default=[])  # globs of block ids; empty: every block


class BookConfig(base.Config):
    """The plugin's options; each environment variable named beside one overrides it."""

    runtime = DottedPath(Runtime, default=PYTHON_RUNTIME)  # a `Runtime` class
    goldens = Folder("goldens")  # the golden folder, relative to mkdocs.yml
    snippets = c.Choice(SNIPPET_RULES, default=ANYWHERE)  # where a block's code is: blocks.py
    fences = c.Choice(FENCES, default=MARKDOWN_EXEC)  # how executed fences behave: options.py
    # An option of a markdown-exec fence that no fence reads: handed on and logged, or an error.
    unknown_options = c.Choice(UNKNOWN_CHOICES, default=UNKNOWN_WARN)
    extensions = c.ListOfItems(DottedPath(Extension), default=[])  # each makes `Extension`s
    execute = c.Type(bool, default=True)  # BOOK_EXEC
    records = c.Type(str, default="")  # BOOK_RECORDS: a sharded run's records, read as its runs
    launcher = c.Type(str, default="")  # the book's command line, e.g. ./book: its commands named
    jobs = Number(0, "pages at once (0: one per core)", zero=True, whole=True)  # BOOK_JOBS
    cache = CacheSwitch()  # BOOK_CACHE
    slow = Number(5.0, "seconds")  # BOOK_SLOW
    # The most characters a shown line of a block may have: what the book's code box holds.
    shown_line_length = Number(0, "characters (0: no limit)", zero=True, whole=True)
    limits = c.SubConfig(LimitsConfig)  # BOOK_BLOCK_TIMEOUT, BOOK_OUTPUT_LIMIT, BOOK_MEMORY_LIMIT
    serve = c.SubConfig(ServeConfig)  # BOOK_SERVE_BACKGROUND, BOOK_SERVE_REFRESH, BOOK_SERVE_WAIT
    glossary = c.SubConfig(GlossaryConfig)
    # The author's normalisation rules, applied to outputs before their goldens only.
    masks = c.ListOfItems(c.SubConfig(MaskConfig), default=[])
    # The engine's own rules for matplotlib's and plotly's random dates and ids (`masks.DEFAULTS`).
    default_masks = c.Type(bool, default=True)
    # markdown-exec's own plugin options, so that its book switches by one line: `ansi` (its
    # ANSI style, whose colours need the `pygments_ansi_color` package) and `languages` (the
    # fences it runs; python and py are always the engine's).
    ansi = c.Choice(ANSI_CHOICES, default="auto")
    languages = c.Optional(c.ListOfItems(c.Choice(tuple(markdown_exec.formatters))))


def make_runtime(path: str) -> Runtime:
    """The runtime the `runtime` option names."""
    runtime = _resolve(path)()
    if not isinstance(runtime, Runtime):
        raise PluginError(f"{NAME}: option 'runtime': {path} does not make a bookexec Runtime")
    return runtime


def make_extensions(paths: Iterable[str]) -> list[Extension]:
    """The extensions the `extensions` option names, in order; each path is an `Extension`
    class or a function returning one or a list of them."""
    made: list[Extension] = []
    for path in paths:
        found = _resolve(path)()
        found = [found] if isinstance(found, Extension) else list(found)
        if not all(isinstance(extension, Extension) for extension in found):
            raise PluginError(
                f"{NAME}: option 'extensions': {path} does not make bookexec Extensions"
            )
        made += found
    return made


def builder_name() -> str:
    """The command line building the book, which messages name (`GOLDEN=update mkdocs build`):
    `properdocs` under ProperDocs, else `mkdocs`. Read, like `live_reload`, from click's
    current context: the package whose command runs."""
    context = click.get_current_context(silent=True)
    callback = context.find_root().command.callback if context is not None else None
    package = (getattr(callback, "__module__", "") or "").partition(".")[0]
    return "properdocs" if package == "properdocs" else "mkdocs"


def live_reload() -> bool:
    """Whether `mkdocs serve` reloads the browser, which decides whether a page shown from its
    goldens ever comes back live. No public API says so: MkDocs tells plugins the command, not
    its `--no-livereload`, and `on_serve` comes after the first build. The command line's
    parser does (click's current context is public; the option's name is the CLI's own:
    `livereload` in MkDocs, `no_livereload` in ProperDocs, which
    tests/e2e/test_scratch_book.py checks under each). Outside a command line (MkDocs
    driven from Python): True."""
    context = click.get_current_context(silent=True)
    if context is None:
        return True
    if "no_livereload" in context.params:  # ProperDocs
        return not context.params["no_livereload"]
    return bool(context.params.get("livereload", True))


class DirtyNotice(LogFilter):
    """Drops MkDocs' warning that a dirty build is under way. Under `mkdocs serve --dirty` the
    engine decides which pages render again (`bookexec._internal.serve.rebuild`), and a strict build
    would count the warning as a failure."""

    LOGGERS = ("mkdocs.commands.build", "properdocs.commands.build")

    def filter(self, record: logging.LogRecord) -> bool:
        """False for the notice; every other record passes."""
        return not record.getMessage().startswith("A 'dirty' build is being performed")


class ServerLines(LogFilter):
    """Under `mkdocs serve`, the dev server's own warnings (a request answered 404) are said
    as information: they are no strict build's, but MkDocs' strict count, a handler of the
    logger above the server's, would count one logged while a rebuild starts, before the
    build's own filter (`ServedWarnings`) is on, and abort that rebuild."""

    LOGGERS = ("mkdocs.livereload", "properdocs.livereload")

    def filter(self, record: logging.LogRecord) -> bool:
        """Every record passes; a warning passes as information."""
        if record.levelno == logging.WARNING:
            record.levelno, record.levelname = logging.INFO, logging.getLevelName(logging.INFO)
        return True


class ServedWarnings(logging.Filter):
    """Under `mkdocs serve`, a strict book's warnings (a page not yet in the nav, a broken
    link) are kept to show on the served pages and said in the log, but not counted: MkDocs
    would abort the rebuild and leave the server stuck on it (issue 41). `mkdocs build
    --strict` still fails on each. No public API: the strict count is a `CountHandler` that
    MkDocs (or ProperDocs) adds to its logger before `on_config`, and whose `handle` applies its
    filters; `tests/e2e/test_serve_draft.py` fails when that changes."""

    LOGGERS = ("mkdocs", "properdocs")
    # The dev server's own lines (a request answered 404 while a build runs): its logger is
    # under MkDocs', so the strict count sees them, but no strict build ever would.
    SERVER = ("mkdocs.livereload", "properdocs.livereload")

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[str] = []

    def filter(self, record: logging.LogRecord) -> bool:
        """Keep the warning's text, unless the server said it; never count it."""
        if not record.name.startswith(self.SERVER):
            self.seen.append(record.getMessage())
        return False

    def attach(self) -> list[str]:
        """Filter this build's strict counters; returns the list the warnings go to."""
        for name in self.LOGGERS:
            for handler in logging.getLogger(name).handlers:
                if type(handler).__name__ == "CountHandler":
                    handler.addFilter(self)
        return self.seen


class MarkdownExecStandIn:
    """What markdown-exec's MkDocs plugin does for a book, done by the engine when the book
    does not list that plugin (its `plugins:` names `executed-book` in its place): the same
    public calls, for every language but the engine's. One per plugin instance: it restores
    the environment variable it set when the build ends."""

    def __init__(self, shown: Callable[[str, str, str], None] | None = None) -> None:
        """`shown`: (language, code, HTML) of each shell, console or pycon fence markdown-exec
        ran, handed to the engine, which keeps a golden of what it shows."""
        self.active = False
        self.ansi = False  # link markdown-exec's ANSI style
        self.config_dir: str | None = None  # MKDOCS_CONFIG_DIR as it was before the build
        self.languages: list[str] = []
        self.shown = shown

    def start(
        self, config: Any, ansi: str | bool = "auto", languages: Iterable[str] | None = None
    ) -> None:
        """`on_config`: markdown-exec's fences for its other languages (those of its
        `languages` option, when given), its Markdown config saved (its tabs and outputs
        convert through it), MKDOCS_CONFIG_DIR for its shell fences; nothing when the book
        lists markdown-exec's plugin, which does all this. `ansi` and `languages`: its options
        of those names (None: every language, its default)."""
        self.active = MARKDOWN_EXEC_PLUGIN not in (getattr(config, "plugins", None) or {})
        if not self.active:
            return
        coloured = importlib.util.find_spec("pygments_ansi_color") is not None
        if ansi in ("required", True) and not coloured:
            raise PluginError(
                f"{NAME}: option ansi={ansi!r} needs the package pygments-ansi-color, which "
                "colours ANSI output (markdown-exec's `ansi` extra): pip install "
                "'markdown-exec[ansi]', or set ansi: auto"
            )
        self.ansi = ansi in ("required", True) or (ansi == "auto" and coloured)
        wanted = set(markdown_exec.formatters if languages is None else languages)
        fences = config.mdx_configs.setdefault(SUPERFENCES, {}).setdefault("custom_fences", [])
        fences[:] = [f for f in fences if f.get("format") is not markdown_exec.formatter]
        # The book's own custom fences, and the engine's languages, are not markdown-exec's.
        taken = {fence.get("name") for fence in fences} | set(LANGUAGES)
        self.languages = [
            lang for lang in markdown_exec.formatters if lang in wanted and lang not in taken
        ]
        fences += [
            {
                "name": lang,
                "class": lang,
                "validator": markdown_exec.validator,
                "format": self.checked if lang in SHELL_LANGUAGES else markdown_exec.formatter,
            }
            for lang in self.languages
        ]
        markdown_exec.markdown_config.save(config.markdown_extensions, config.mdx_configs)
        self.config_dir = os.environ.get("MKDOCS_CONFIG_DIR")
        os.environ["MKDOCS_CONFIG_DIR"] = os.path.dirname(config.config_file_path)

    def checked(self, src: str, language: str, *args: Any, **kwargs: Any) -> Any:
        """markdown-exec's own formatter, run as its plugin runs it; what it made is handed
        to the engine (`shown`), which compares what a reader reads of it with its golden."""
        made = markdown_exec.formatter(src, language, *args, **kwargs)
        if self.shown is not None:
            self.shown(language, src, str(made))
        return made

    def assets(self, config: Any) -> None:
        """`on_env`: markdown-exec's ANSI style (`ansi`), and the style and script its
        pyodide fences need, written into the site and linked first, in its plugin's order."""
        if not self.active:
            return
        wanted = [("ansi.css", "css")] if self.ansi else []
        if "pyodide" in self.languages:
            wanted += [("pyodide.css", "css"), ("pyodide.js", "javascript")]
        folder = Path(markdown_exec.__file__).parent / "assets"
        for name, kind in wanted:
            uri = f"assets/_markdown_exec_{name}"
            target = Path(config.site_dir) / uri
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text((folder / name).read_text(encoding="utf-8"), encoding="utf-8")
            listed = config[f"extra_{kind}"]
            if uri not in [str(item) for item in listed]:
                listed.insert(0, uri)

    def end(self) -> None:
        """`on_post_build`: markdown-exec's state reset as its plugin resets it, so the next
        build of `mkdocs serve` numbers its ids from the start again."""
        if not self.active:
            return
        markdown_exec.MarkdownConverter.counter = 0
        markdown_exec.markdown_config.reset()
        if self.config_dir is None:
            os.environ.pop("MKDOCS_CONFIG_DIR", None)
        else:
            os.environ["MKDOCS_CONFIG_DIR"] = self.config_dir
        self.active = False


class ExecutedBookPlugin(BasePlugin[BookConfig]):
    """Every MkDocs event goes to the one `Engine`, made from the options."""

    def __init__(self) -> None:
        self.engine: Engine | None = None
        self.made_from: tuple[str, tuple[str, ...]] | None = None
        self.command = "build"
        self.dirty = False
        self.reloads = True
        self.notice = DirtyNotice()
        self.server_lines = ServerLines()
        # markdown-exec's plugin, when a book lists none
        self.stand_in = MarkdownExecStandIn(self.shown_by_markdown_exec)

    def configured(self) -> Engine:
        """The engine for the configured runtime and extensions: made again when a build
        starts with others (an edit of mkdocs.yml under `mkdocs serve`)."""
        wanted = (self.config.runtime, tuple(self.config.extensions))
        if self.engine is None or self.made_from != wanted:
            copies = None  # the server answers from them: they outlive the engine
            if self.engine is not None:
                if self.engine.serve is not None:
                    copies, self.engine.serve.copies = self.engine.serve.copies, None
                self.engine.on_shutdown()
            self.engine = Engine(make_runtime(wanted[0]), make_extensions(wanted[1]))
            self.engine.on_startup(self.command, self.dirty, self.reloads)
            if self.engine.serve is not None:
                self.engine.serve.copies = copies
            self.made_from = wanted
        return self.engine

    def current(self) -> Engine:
        """The engine of the build under way (`on_config` made it)."""
        if self.engine is None:
            raise PluginError(f"{NAME}: an event came before any build started (on_config)")
        return self.engine

    def on_startup(self, *, command: str, dirty: bool) -> None:
        """`build` or `serve`: its presence keeps this instance for the whole serve."""
        self.command, self.dirty, self.reloads = command, dirty, live_reload()
        if command == "serve" and dirty:
            self.notice.install()
        if command == "serve":
            self.server_lines.install()
        if self.engine is not None:
            self.engine.on_startup(command, dirty, self.reloads)

    def shown_by_markdown_exec(self, language: str, code: str, made: str) -> None:
        """A shell, console or pycon fence markdown-exec ran: checked against its golden, in a
        book whose fences are laid out as markdown-exec's (which plans them)."""
        build = self.current().current()
        if build.settings.fences == MARKDOWN_EXEC:
            build.render.shown_by_markdown_exec(language, code, made)

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig | None:
        """Start a new build, with its settings: the one place the environment is read."""
        serving = self.command == "serve"
        context = from_config(
            config, self.config, os.environ, builder=builder_name(), serving=serving
        )
        # Under serve: each build's own counter, and its own warnings.
        served = ServedWarnings() if serving else None
        warnings = None if served is None else served.seen
        made: MkDocsConfig | None = self.configured().on_config(config, context, warnings)
        self.stand_in.start(config, self.config.ansi, self.config.languages)
        if served is not None:
            served.attach()
        return made

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files | None:
        """Plan the pages and start running them."""
        planned: Files | None = self.current().on_files(files, config)
        return planned

    @event_priority(50)  # before mkdocs-jupyter reads the notebook it is about to render
    def on_pre_page(self, page: Page, *, config: MkDocsConfig, files: Files) -> Page | None:
        """Before MkDocs reads a page."""
        read: Page | None = self.current().on_pre_page(page, config, files)
        return read

    def on_page_markdown(
        self, markdown: str, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str:
        """Fill a page's facts and the book's additions."""
        return self.current().on_page_markdown(markdown, page, config, files)

    def on_page_content(self, html: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
        """A served page's summary of its problems."""
        return self.current().on_page_content(html, page, config, files)

    @event_priority(-100)  # last: the page as it is written, after every other plugin
    def on_post_page(self, output: str, *, page: Page, config: MkDocsConfig) -> str:
        """Check the page's final HTML against what its blocks printed."""
        return self.current().on_post_page(output, page, config)

    @event_priority(-50)  # after the search plugin has written its index
    def on_post_build(self, *, config: MkDocsConfig) -> None:
        """Judge the build."""
        try:
            self.current().on_post_build(config)
        finally:
            self.stand_in.end()

    def on_env(
        self, env: jinja2.Environment, *, config: MkDocsConfig, files: Files
    ) -> jinja2.Environment | None:
        """Keep the theme's compiled templates across the rebuilds of `mkdocs serve`."""
        self.stand_in.assets(config)
        kept: jinja2.Environment = self.current().on_env(env)
        return kept

    def on_build_error(self, *, error: Exception) -> None:
        """Stop the build's workers."""
        self.stand_in.end()
        if self.engine is not None:
            self.engine.on_build_error(error)

    def on_serve(
        self, server: LiveReloadServer, *, config: MkDocsConfig, builder: Callable[..., None]
    ) -> LiveReloadServer | None:
        """Reload pages live as their blocks finish; an edited snippet or golden rebuilds."""
        for folder in unwatched(self.current().current().watched(), config):
            server.watch(str(folder))
        served: LiveReloadServer | None = self.current().on_serve(server, config, builder)
        return served

    def on_shutdown(self) -> None:
        """Stop everything."""
        self.notice.remove()
        self.server_lines.remove()
        if self.engine is not None:
            self.engine.on_shutdown()
