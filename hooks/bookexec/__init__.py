"""The executed book: run every snippet in a page's own worker, diff each output with its golden.

The public API is `bookexec.__all__`, and nothing else; within a minor release it does not
change but by addition (docs/guide/adopt-api.md: what is stable, and how a name is deprecated):

- `ExecutedBookPlugin`: the MkDocs plugin (`plugins: [executed-book]`) and its options.
- `Runtime`, `PythonRuntime`, `JaxRuntime`: the language runtime a book runs its blocks under
  (the plugin's `runtime` option names one, e.g. `bookexec.PythonRuntime`), and `Drift`, the
  class of a drift a runtime's `classify` returns.
- `Extension`: a book's own feature (the plugin's `extensions` option), handed each build as a
  `BuildView`, the read-only part of a build an extension may read: its `Block`s and their
  `Fact`s, its settings, results and verdicts.
- `BookError`: the error a bad input raises, said without a traceback; an extension raises it
  to fail a build.
- `BookContext`, `open_book`: the book opened once from its mkdocs.yml and the environment (its
  root, settings and the paths they name), which every build starts from (`BuildView.context`)
  and a book's own command opens with `open_book`.

Beside them, by name: the modules a snippet imports, `bookexec.facts` to record values and
claims (its own `__all__`: `record`, `timing`, `timings`, `claim`, `figure`) and
`bookexec.jax.stepper` for the trace stepper, the plugin's entry point `executed-book`, the
Markdown extension `bookexec.guard`, the Pygments lexer `jaxpr` and `python -m bookexec`.
Every other module is under `bookexec._internal`, as markdown-exec and mkdocstrings lay theirs
out: its names may change in any release (`tests/unit/test_public_api.py` holds the public API
to a snapshot, and a change to it to an entry in CHANGELOG.md). The engine makes the build
itself (`_internal.engine.Build`); a book reads it only through `BuildView`. The list below
names each module without its `bookexec._internal.` (or, for the public ones above,
`bookexec.`); `jax.stepper` is the only public module of the `jax` layer.

Layers, lowest first; a module imports only from its own layer or lower ones. The layers are
one table, `_LAYERS` below: tests/unit/test_architecture.py enforces it on every import, and
checks the table in docs/guide/architecture.md and this list of modules against it.

Layer 0, the base (imports nothing of the engine):

- `errors`: the one error type the book raises for bad input.
- `files`: atomic writes confined to their folder (no symlink on the way), whether a file a
  page shows is one of the book's, the update lock, and `CachePaths`, the one home of the
  `.cache/bookexec` paths.
- `facts`: what a snippet records (counts, timings, ratios, claims, figures); runs in the worker.
- `privacy`: the worker's environment, the masking of the build's credentials (in outputs and
  in everything a page shows), and the machine's names that must never reach a page.
- `guard`: a Markdown extension that stops any build not going through this engine.
- `escapes`: control and bidirectional characters made visible: escaped in what a terminal
  prints, marked on the page.
- `logs`: `LogFilter`, a filter the engine installs on MkDocs' loggers and takes off again.

Layer 1, `discover`: what a book runs, found before anything runs.

- `discover.blocks`: the executed fences of a page, with their ids, snippets and lines, and
  those a block prints that markdown-exec runs as it renders the output.
- `discover.hidden`: hidden lines, which a block runs but the reader never sees nor copies.
- `discover.memo`: under serve, each page's scan kept for the next build, reused where nothing
  it read has changed.
- `discover.options`: the fence options, and the one rule for yes/no values.

Layer 2, `goldens`: the recorded output of every block; generic, it knows nothing of JAX.

- `goldens.store`: the golden file format (its body's escapes), paths, and the VERSIONS file.
- `goldens.compare`: a golden against this build's output; `Drift` and its classes.
- `goldens.report`: what a check or an update says, in one order, and what the update writes.
- `goldens.actions`: under GitHub Actions, the check's annotations on each block's fence and
  its job summary.
- `goldens.measured`: measured values: how goldens write them, and how bands and claims judge.
- `goldens.normalize`: remove what varies between machines and runs, and nothing else.
- `goldens.masks`: normalisation rules for goldens only: the engine's defaults (matplotlib's and
  plotly's random dates and ids) and the author's own (the plugin's `masks`).
- `goldens.images`: an output's images as files beside its golden, compared by their pixels.
- `goldens.review`: the report a failed check leaves, and accepting one of its goldens.

Layer 3, `execute`: blocks run in worker processes; generic, it never imports JAX.

- `execute.protocol`: the messages between the runner and a worker.
- `execute.runtime`: the language-runtime seam (`Runtime`, and `PythonRuntime`).
- `execute.model`: the run model every layer reads: `BlockRun`, `PageRun`, `Note`.
- `execute.limits`: a block's time, output and memory limits, from its fence and the environment.
- `execute.handle`: the worker handle: one child process, each block sent under its limits.
- `execute.outcome`: a worker's result judged against the fence (`raises`, limits), masked.
- `execute.runner`: the pool: a fresh worker per page, pages in parallel, a page's blocks in order.
- `execute.worker`: the child process that holds one page's session.
- `execute.cache`: the author's block cache, keyed on everything that can change an output, and
  a run as the cache stores it.
- `execute.progress`: pages and blocks done, slow blocks, the summary line.
- `execute.eta`: the time left, from each block's last run time.
- `execute.lifeline`: a worker dies with the build that started it.
- `execute.launch`: bounds a worker as it starts: its watcher, memory limit and subreaper.
- `execute.reaper`: every process a block started is killed with its block, page or build.
- `execute.watch`: the book is read-only to its blocks; a change names the block and the file.
- `execute.journal`: the blocks running now, so a build a block kills is named by the next.

Layer 4, `render`: what the reader sees.

- `render.fence`: the markdown-exec formatter: the engine's output, laid out by `render.layout`.
- `render.layout`: a block's boxes as HTML made by the engine: nothing a block holds is markup.
- `render.mdexec`: a block laid out by markdown-exec's own `base_format`, from the engine's output.
- `render.verify`: each page's final HTML checked against what its blocks hold and printed.
- `render.leftovers`: the engine's markup left in what a build wrote (pages, cards, notebooks,
  the search index), named by the page and line that wrote it.
- `render.prose`: `{{fact:block.name}}`, `{{figure:block.name}}` and `{{stepper:block.name}}`
  in a page's text.
- `render.figures`: figures drawn at build time from recorded values, as SVG.
- `render.stepper_html`: the trace stepper's HTML (a function's lines beside the program they
  recorded; whole without JavaScript) and its own script and style, which the engine adds.
- `render.glossary`: glossary entries and anchors; the first use of each term marked, with its card.

Layer 5, `pipeline`, `settings` and `context`: one build's typed stages, each testable alone,
its settings, and the book's context every driver starts from.

- `settings`: a build's settings, read once as it starts from the plugin's options and the
  environment.
- `context`: the book opened once (`BookContext`): its root, settings and every path they name,
  made by one function from mkdocs.yml and the environment; every driver starts from it.

- `pipeline.plan`: pages to blocks, scanned before anything runs.
- `pipeline.drive`: the one way every driver starts the stages: the book's executor from its
  context and the run's options, and the whole book planned and run page by page for a driver
  that judges nothing (`./book jax-changes`).
- `pipeline.run`: the `PageExecutor` protocol both executors implement, and the goldens shown
  when nothing runs.
- `pipeline.judge`: each block's output against its golden, the failures, the report.
- `pipeline.render`: what the fence shows for a block, prose values and figures, the page check.
- `pipeline.finish`: a build's end: the report complete, said, saved for the review or written
  by the update, and the summary.
- `pipeline.records`: sharded runs: a shard's pages run and recorded, and every shard's records
  read back, checked, as a build's runs.
- `pipeline.terms`: the glossary of a build: its anchors, links checked, terms marked, cards placed.

Layer 6, `serve`: `mkdocs serve` alone; nothing here runs in `mkdocs build`.

- `serve.background`: pages at once from goldens, their blocks run behind them.
- `serve.rebuild`: under `--dirty`, the page graph: what each page read, which pages a rebuild
  renders.
- `serve.dirty`: under `--dirty`, the pages a build renders, chosen from the graph and said.
- `serve.search`: under `--dirty`, the search index as a full build would write it.
- `serve.answer`: every file of the site answered at once from the last finished build's copy,
  never held while a rebuild runs.
- `serve.browser_review`: accept or keep a drifted golden from its page (a loopback-only server
  with a token; `goldens.review` writes the golden).
- `serve.templates`: the theme's compiled templates, kept across the rebuilds.
- `serve.state`: what the serve process hands each build it starts, as one value.
- `serve.session`: the serve process itself (`ServeSession`): what it keeps across builds and
  adds to each build's events; the engine holds one under serve and none under build.

Layer 7, `engine` and `extension`: MkDocs' events to the stages, and the seam a book's own
features plug into.

- `engine`: the `Engine` the plugin makes, and one `Build` per MkDocs build, wiring the
  stages.
- `extension`: the `Extension` seam through which a book adds its own features, and the
  `BuildView` each of its hooks is handed: what it may read of a build, read-only.

Layer 8, `jax`: JAX, the runtime this book uses.

- `jax.jax_runtime`: `JaxRuntime`: preload, probe, versions, and drift read as programs.
- `jax.probe`: what that runtime runs inside a worker.
- `jax.parse`: printed jaxprs back into structure.
- `jax.diff`: cosmetic or structural drift, and the aligned equation diff.
- `jax.lexer`: jaxpr highlighting.
- `jax.stepper`: the trace stepper's mapping, run in the worker: which line of a function JAX
  recorded each equation at, the prints while tracing, whether later calls traced again.

Layer 9, `plugin`: the MkDocs plugin.

- `plugin`: `plugins: [executed-book]`: its typed options, and each MkDocs event handed to the
  one `Engine`, made with the runtime and extensions the options name.

Layer 9, `command`: the engine's own command line, `python -m bookexec`.

- `__main__`: `python -m bookexec review`.
- `command.terminal`: the review's terminal: the report walked one key at a time, or listed.
"""

from __future__ import annotations

# Neither typing nor importlib: a worker imports this package, and imports nothing a snippet
# could notice (tests/unit/test_protocol.py). mypy reads any name TYPE_CHECKING as true.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from bookexec._internal.context import BookContext, open_book
    from bookexec._internal.discover.blocks import Block
    from bookexec._internal.errors import BookError
    from bookexec._internal.execute.runtime import PythonRuntime, Runtime
    from bookexec._internal.extension import BuildView, Extension
    from bookexec._internal.goldens.compare import Drift
    from bookexec._internal.goldens.measured import Fact
    from bookexec._internal.jax.jax_runtime import JaxRuntime
    from bookexec._internal.plugin import ExecutedBookPlugin

# The layers, lowest first: a module imports only from its own layer or a lower one. Read by
# tests/unit/test_architecture.py, which also holds docs/guide/architecture.md's table to it.
_LAYERS: tuple[tuple[str, ...], ...] = (
    ("errors", "files", "facts", "privacy", "guard", "escapes", "logs"),
    ("discover",),
    ("goldens",),
    ("execute",),
    ("render",),
    ("pipeline", "settings", "context"),
    ("serve",),
    ("engine", "extension"),
    ("jax",),
    ("plugin", "command", "__main__"),
)

# Each public name's home, imported when first asked for: not MkDocs in every worker.
_HOMES = {
    "ExecutedBookPlugin": "bookexec._internal.plugin",
    "Extension": "bookexec._internal.extension",
    "BuildView": "bookexec._internal.extension",
    "Runtime": "bookexec._internal.execute.runtime",
    "PythonRuntime": "bookexec._internal.execute.runtime",
    "JaxRuntime": "bookexec._internal.jax.jax_runtime",
    "Drift": "bookexec._internal.goldens.compare",
    "Block": "bookexec._internal.discover.blocks",
    "Fact": "bookexec._internal.goldens.measured",
    "BookError": "bookexec._internal.errors",
    "BookContext": "bookexec._internal.context",
    "open_book": "bookexec._internal.context",
}

__all__ = [
    "Block",
    "BookContext",
    "BookError",
    "BuildView",
    "Drift",
    "ExecutedBookPlugin",
    "Extension",
    "Fact",
    "JaxRuntime",
    "PythonRuntime",
    "Runtime",
    "open_book",
]


def __getattr__(name: str) -> object:
    """A public name, imported from its home on first use."""
    if name in _HOMES:
        return getattr(__import__(_HOMES[name], fromlist=[name]), name)
    raise AttributeError(f"module 'bookexec' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The public names, beside the module's own."""
    return sorted([*globals(), *__all__])
