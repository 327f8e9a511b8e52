import gc
import sys
from collections import Counter

import jax

# the class of every primitive (jax.extend.core.Primitive), taken from
# one: importing jax.extend.core would load modules that add primitives
Primitive = type(jax.lax.sin_p)


def live_primitives():
    return [obj for obj in gc.get_objects() if isinstance(obj, Primitive)]


after_jax = len(live_primitives())
print("after import jax:", after_jax, "primitives")
modules = set(sys.modules)

import jax.lax  # noqa: E402
import jax.nn  # noqa: E402
import jax.random  # noqa: E402
import jax.scipy.special  # noqa: E402

prims = live_primitives()
new_modules = len(set(sys.modules) - modules)
print(
    f"after lax, nn, random, scipy.special: {len(prims)} primitives, "
    f"{new_modules} more modules"
)
names = {p.name for p in prims}
print("distinct names:", len(names))
kinds = Counter(type(p).__name__ for p in prims)
# Most first, ties by name (a Counter's repr orders ties as gc.get_objects()
# found them).
by_count = sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0]))
print(", ".join(f"{kind}: {n}" for kind, n in by_count))
# Some of the names: much more than arithmetic is a primitive.
print(
    "among them:",
    sorted(
        names & {"jit", "device_put", "debug_print", "remat2", "ffi_call"}
    ),
)
# Which lack a JVP, transpose or batching rule. JAX keeps part of these
# rules in internal tables (jax._src: version-bound, for counting only).
from jax._src.interpreters import ad  # noqa: E402
from jax.interpreters import batching  # noqa: E402


def has_rules(p):
    jvp = p in ad.primitive_jvps or p in ad.primitive_linearizations
    transpose = p in ad.primitive_transposes or p in ad.fancy_transposes
    return jvp and transpose and p in batching.fancy_primitive_batchers


lacking = sum(not has_rules(p) for p in prims)
print(f"without a JVP, transpose or batching rule: {lacking}")
# hidden: begin
# Imported last: the engine's module imports its own, which must not change
# the counts above.
from bookexec.facts import claim, record  # noqa: E402

record("after_jax", after_jax)
record("total", len(prims))
record("new_modules", new_modules)
record("names", len(names))
claim("total", "<=", "after_jax")  # the four imports add no primitive
claim("names", ">=", "total", says="each primitive has its own name")
# every kind other than plain Primitive
record("n_subclasses", len(kinds) - 1)
record("lacking", lacking)
record("half", len(prims) // 2)
claim("lacking", ">", "half", says="most primitives lack at least one rule")
# hidden: end
