# On_host comes from the blocks above
import jax

from bookexec.facts import record  # hidden

aval = jax.typeof(on_host)
print(type(aval).__module__ + "." + type(aval).__qualname__)
slots = jax.core.ShapedArray.__slots__
print(slots)
record("slots", len(slots))  # hidden
for name in slots:
    if name != "__weakref__":
        print(f"{name:19} {getattr(aval, name)!r}")
