"""Mutations on the execution side, for tests/e2e/test_mutation.py: never a change to a golden.

`tests/e2e/test_mutation.py` puts a copy of this file in a folder of its own and adds that folder
to PYTHONPATH, which the build hands to every worker (`python -m
bookexec._internal.execute.worker`), so Python runs it at start-up, before any block. The builder
(`mkdocs`) runs it too, and is left alone: it runs no block (its workers are changed however it
starts them). Beside this file, `mutation_plan.txt` (a Python literal, read with `eval` so that
nothing is imported) says what to change; with no plan the file does nothing, and a control build
must stay green.

What it changes, each only in the workers and only where the plan says:

- `rename`: a primitive's `.name`, set right after the module that makes it is imported, so
  every printed jaxpr that holds it shows the new name;
- `add_eqn`: a primitive's `bind`, wrapped so that it binds one more primitive (`copy`) on
  its result: one more equation wherever it is traced;
- `error`: the message of an exception class, changed in its `__init__`;
- `print`: a piece of text, replaced in what `print` writes from one snippet;
- `record`: an exact count recorded by one snippet (`bookexec.facts.record`), changed;
- `timing`: one timing of one snippet, made `factor` times slower (by the clock `timing` reads,
  or the seconds a block that times itself hands to `record`);
- `figure`: a figure's data (`bookexec.facts.figure`), its last x value moved;
- `source_line`: the line JAX records for an equation (`jax._src.source_info_util`'s user
  frames), moved from one line of a snippet to another, as a JAX that attributed equations
  differently would: the trace stepper's mapping changes, the printed jaxpr does not.

Where a change names a snippet, it applies only while a frame of that file (the name a block's
code is compiled under) is on the stack: each change reaches only the blocks it is meant for.

Start-up must leave nothing a block could notice: this module leaves `sys.modules` and
`sys.meta_path` at the next import, imports nothing (`sys`, `time` and `builtins` are loaded
by every interpreter before it), and installs its import hook only when a plan asks for a
change.
"""

import sys


def _plan():
    if any(arg.rpartition("/")[2] == "mkdocs" for arg in sys.orig_argv[:3]):
        return None  # the builder runs no block; only the processes it starts are changed
    folder = __file__.rpartition("/")[0]
    try:
        with open(folder + "/mutation_plan.txt", encoding="utf-8") as file:
            text = file.read()
    except FileNotFoundError:
        return None
    return eval(text, {"__builtins__": {}})  # a literal the test wrote


def _from_snippet(snippet):
    """Whether a frame of `snippet` (a block's file name) is on the stack: the block runs."""
    frame = sys._getframe(2)
    while frame is not None:
        if frame.f_code.co_filename == snippet:
            return True
        frame = frame.f_back
    return False


def _rename(module, change):
    getattr(module, change["attr"]).name = change["name"]


def _add_eqn(module, change):
    primitive = getattr(module, change["attr"])
    bind = primitive.bind

    def bind_one_more(*args, **params):
        out = bind(*args, **params)
        extra = getattr(sys.modules[change["extra_module"]], change["extra_attr"])
        return extra.bind(out)

    primitive.bind = bind_one_more


def _source_line(module, change):
    user_frames = module.user_frames

    def moved(traceback):
        for frame in user_frames(traceback):
            if frame.file_name.endswith(change["snippet"]) and frame.start_line == change["old"]:
                frame = frame._replace(start_line=change["new"], end_line=change["new"])
            yield frame

    module.user_frames = moved


def _error(module, change):
    cls = getattr(module, change["cls"])
    init = cls.__init__

    def changed_init(self, *args, **kwargs):
        init(self, *args, **kwargs)
        if self.args and isinstance(self.args[0], str):
            self.args = (change["prefix"] + self.args[0], *self.args[1:])

    cls.__init__ = changed_init


def _facts(module, plan):
    record, timing, figure = module.record, module.timing, module.figure
    counts = plan.get("record", [])
    timings = plan.get("timing", [])
    figures = plan.get("figure", [])

    def changed_record(name, value, kind="exact", band=None):
        for change in counts:
            if name == change["name"] and kind == "exact" and _from_snippet(change["snippet"]):
                value = value + change["delta"]
        # A block that times itself (timeit, perf_counter) hands its seconds to `record`:
        # they are what a `factor` times slower run would have measured.
        for change in timings:
            if name == change["name"] and kind == "timing" and _from_snippet(change["snippet"]):
                value = value * change["factor"]
        return record(name, value, kind=kind, band=band)

    def changed_timing(name, fn, **options):
        real = module.time
        for change in timings:
            if name == change["name"] and _from_snippet(change["snippet"]):
                module.time = _FastClock(real)
                fn = _slower(fn, change["factor"], module.time, module)
        try:
            return timing(name, fn, **options)
        finally:
            module.time = real

    def changed_figure(name, x, series, **options):
        for change in figures:
            if name == change["name"] and _from_snippet(change["snippet"]):
                x = [*x[:-1], x[-1] + change["dx"]]
        return figure(name, x, series, **options)

    module.record, module.timing, module.figure = changed_record, changed_timing, changed_figure


class _FastClock:
    """The `time` module as `bookexec.facts.timing` reads it, but for `perf_counter`, which
    also counts `extra` seconds: the time the timed function is made to lose."""

    def __init__(self, clock):
        self.clock, self.extra = clock, 0.0

    def perf_counter(self):
        return self.clock.perf_counter() + self.extra

    def __getattr__(self, name):
        return getattr(self.clock, name)


def _slower(fn, factor, clock, facts):
    """`fn`, taking `factor` times as long by the clock `timing` reads. The clock runs ahead
    instead of the function sleeping: a real wait of 49 times a timing that is slow under load
    could pass the block's time limit, and the measurement is the same."""

    def slow():
        start = clock.clock.perf_counter()
        result = fn()
        facts._ready(result)  # the same wait as `timing`'s own clock
        clock.extra += (factor - 1) * (clock.clock.perf_counter() - start)
        return result

    return slow


def _print(changes):
    import builtins  # always loaded: the interpreter's own

    original = builtins.print

    def changed_print(*args, sep=" ", end="\n", file=None, flush=False):
        for change in changes:
            if _from_snippet(change["snippet"]):
                text = (" " if sep is None else sep).join(map(str, args))
                if change["old"] in text:
                    args, sep = (text.replace(change["old"], change["new"]),), ""
                    break
        return original(*args, sep=sep, end=end, file=file, flush=flush)

    builtins.print = changed_print


class _AfterImport:
    """A meta-path finder that lets the real finders find a module, then patches it once its
    code has run."""

    def __init__(self, patches):
        self.patches = patches  # module name -> [function(module)]

    def find_spec(self, fullname, path=None, target=None):
        if fullname not in self.patches:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None and spec.loader is not None:
                break
        else:
            return None
        exec_module = spec.loader.exec_module
        patches = self.patches.pop(fullname)

        def exec_then_patch(module):
            exec_module(module)
            for patch in patches:
                patch(module)

        spec.loader.exec_module = exec_then_patch
        return spec


def _install(plan):
    patches = {}

    def after(module, patch):
        patches.setdefault(module, []).append(patch)

    for change in plan.get("rename", []):
        after(change["module"], lambda m, c=change: _rename(m, c))
    for change in plan.get("add_eqn", []):
        after(change["module"], lambda m, c=change: _add_eqn(m, c))
    for change in plan.get("error", []):
        after(change["module"], lambda m, c=change: _error(m, c))
    for change in plan.get("source_line", []):
        after("jax._src.source_info_util", lambda m, c=change: _source_line(m, c))
    if any(plan.get(key) for key in ("record", "timing", "figure")):
        after("bookexec.facts", lambda m: _facts(m, plan))
    if plan.get("print"):
        _print(plan["print"])
    if patches:
        sys.meta_path.insert(0, _AfterImport(patches))


class _Vanish:
    """Takes this module out of `sys.modules` at the next import, then leaves `sys.meta_path`:
    a block that lists modules sees a plain interpreter. (Not at once: `site` reads the entry
    back right after running this file.)"""

    @classmethod
    def find_spec(cls, fullname, path=None, target=None):
        sys.modules.pop("sitecustomize", None)
        if cls in sys.meta_path:
            sys.meta_path.remove(cls)


_active = _plan()
if _active:
    _install(_active)
sys.meta_path.insert(0, _Vanish)
