import gc
import sys
import weakref
from collections import Counter, defaultdict

from bookexec.facts import record

# Before JAX is imported, watch every Python function start. Each time the
# constructor of a Primitive runs, walk up the stack to the module whose
# top-level code is running: that module is where the primitive was made.
mon = sys.monitoring
mon.use_tool_id(mon.PROFILER_ID, "census")
birthplace = {}


def on_start(code, offset):
    if code.co_name != "__init__" or not code.co_filename.endswith("_src/core.py"):
        return mon.DISABLE  # never report this function again
    obj = sys._getframe(1).f_locals.get("self")
    if not any(cls.__name__ == "Primitive" for cls in type(obj).__mro__):
        return None
    frame = sys._getframe(1)
    while frame.f_code.co_name != "<module>":
        frame = frame.f_back
    birthplace[id(obj)] = (weakref.ref(obj), frame.f_globals["__name__"])


mon.register_callback(mon.PROFILER_ID, mon.events.PY_START, on_start)
mon.set_events(mon.PROFILER_ID, mon.events.PY_START)
import jax  # noqa: E402
import jax.lax  # noqa: E402
import jax.nn  # noqa: E402
import jax.random  # noqa: E402
import jax.scipy.special  # noqa: E402, F401

mon.set_events(mon.PROFILER_ID, 0)
mon.free_tool_id(mon.PROFILER_ID)

from jax._src.core import Primitive  # noqa: E402

prims = [obj for obj in gc.get_objects() if isinstance(obj, Primitive)]
groups = defaultdict(list)
for p in prims:
    ref, module = birthplace.get(id(p), (None, "?"))
    if ref is None or ref() is not p:
        module = "?"
    # jax._src.lax.linalg -> lax; jax._src.core -> core
    groups[module.removeprefix("jax._src.").split(".")[0]].append((module, p.name))

print(f"{'group':20} {'count':>5}  modules  examples")
for group, members in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
    modules = len({m for m, _ in members})
    examples = ", ".join(sorted(name for _, name in members)[:4])
    count = record(f"n_{group}" if group != "?" else "n_unattributed", len(members))
    print(f"{group:20} {count:5}  {modules:7}  {examples}")
print("total:", record("total", len(prims)), " groups:", record("groups", len(groups)))
print("unattributed:", record("unattributed", len(groups.get("?", []))))

lax_modules = Counter(m for m, _ in groups["lax"])
print("\ninside lax:")
# Most first, ties by name: most_common() alone keeps gc.get_objects() order for ties.
for module, count in sorted(lax_modules.items(), key=lambda kv: (-kv[1], kv[0])):
    print(f"{count:5}  {module}")
record("lax_modules", len(lax_modules))
record("in_lax_lax", lax_modules["jax._src.lax.lax"])
