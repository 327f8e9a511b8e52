import gc
import sys
from collections import Counter

import jax
from jax._src.core import Primitive  # loaded by `import jax` already: adds nothing

from bookexec.facts import claim, record


def live_primitives():
    return [obj for obj in gc.get_objects() if isinstance(obj, Primitive)]


print("after import jax:", record("after_jax", len(live_primitives())), "primitives")
modules = set(sys.modules)

import jax.lax  # noqa: E402
import jax.nn  # noqa: E402
import jax.random  # noqa: E402
import jax.scipy.special  # noqa: E402, F401

prims = live_primitives()
print("after lax, nn, random, scipy.special:", record("total", len(prims)), "primitives,", end=" ")
print(record("new_modules", len(set(sys.modules) - modules)), "more modules")
print("distinct names:", record("names", len({p.name for p in prims})))
claim("total", "<=", "after_jax")  # the four imports add no primitive
claim("names", ">=", "total", says="each primitive has its own name")
kinds = Counter(type(p).__name__ for p in prims)
# Most first, ties by name (a Counter's repr orders ties as gc.get_objects() found them).
by_count = sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0]))
print(", ".join(f"{kind}: {n}" for kind, n in by_count))
record("n_subclasses", len(kinds) - 1)  # every kind other than plain Primitive
# Some of the names: much more than arithmetic is a primitive.
names = {p.name for p in prims}
print("among them:", sorted(names & {"jit", "device_put", "debug_print", "remat2", "ffi_call"}))
