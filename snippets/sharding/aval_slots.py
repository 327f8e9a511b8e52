# on_host comes from the blocks above
import jax

from bookexec.facts import record  # hidden

aval = jax.typeof(on_host)
print(type(aval).__name__)
fields = (
    "shape",
    "dtype",
    "weak_type",
    "sharding",
    "manual_axis_type",
    "memory_space",
    "layout",
)
record("slots", spelled(len(fields)))  # hidden
for name in fields:
    print(f"{name:16} {getattr(aval, name)!r}")
