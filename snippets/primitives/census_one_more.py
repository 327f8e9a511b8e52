import gc
import sys

import jax
import jax.lax
import jax.nn
import jax.random
import jax.scipy.special

Primitive = type(jax.lax.sin_p)  # as in the census above


def census():
    return {obj for obj in gc.get_objects() if isinstance(obj, Primitive)}


before, modules = census(), set(sys.modules)
print("as in the census:       ", len(before), "primitives")

import jax.experimental.sparse  # noqa: E402

after = census()
print("+ jax.experimental.sparse:", len(after), "primitives,", end=" ")
print(len(set(sys.modules) - modules), "more modules")
new = sorted(p.name for p in after - before)
print("   new:", ", ".join(new[:6]), "...")

import jax.extend.core  # noqa: E402

last = census()
print("+ jax.extend.core:        ", len(last), "primitives")
print("   new:", ", ".join(sorted(p.name for p in last - after)))
print(
    "   its Primitive is the class counted:",
    jax.extend.core.Primitive is Primitive,
)
# hidden: begin
# Imported last: the engine's module imports its own, which must not change
# the counts above.
from bookexec.facts import record  # noqa: E402

record("before", len(before))
record("with_sparse", len(after))
record("added_sparse", len(new))
record("with_extend", len(last))
record("added_extend", len(last - after))
# hidden: end
