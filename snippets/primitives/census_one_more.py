import gc
import sys

import jax
import jax.lax
import jax.nn
import jax.random
import jax.scipy.special
from jax._src.core import Primitive

from bookexec.facts import record  # hidden


def census():
    return {obj for obj in gc.get_objects() if isinstance(obj, Primitive)}


before, modules = census(), set(sys.modules)
print("as in the census:       ", len(before), "primitives")
record("before", len(before))  # hidden

import jax.experimental.sparse  # noqa: E402

after = census()
print("+ jax.experimental.sparse:", len(after), "primitives,", end=" ")
record("with_sparse", len(after))  # hidden
print(len(set(sys.modules) - modules), "more modules")
new = sorted(p.name for p in after - before)
record("added_sparse", len(new))  # hidden
print("   new:", ", ".join(new[:6]), "...")

import jax.extend.core  # noqa: E402, F401

last = census()
print("+ jax.extend.core:        ", len(last), "primitives")
record("with_extend", len(last))  # hidden
print("   new:", ", ".join(sorted(p.name for p in last - after)))
record("added_extend", len(last - after))  # hidden
