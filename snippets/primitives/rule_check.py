# Cyclic_shift_p, cyclic_shift and x come from the blocks above
import jax
from jax.interpreters import ad, batching

from bookexec.facts import record  # hidden


def lowers(fn, *args):
    try:
        jax.jit(fn).lower(*args)
    except NotImplementedError:
        return False
    return True


tables = {
    "lowering": lowers(cyclic_shift, x),  # no public table of lowerings: lower it and see
    "JVP": cyclic_shift_p in ad.primitive_jvps,
    "transpose": cyclic_shift_p in ad.primitive_transposes,
    "batching": cyclic_shift_p in batching.fancy_primitive_batchers,  # where JAX stores it
}
for table, present in tables.items():
    print(f"{table:10} rule registered: {present}")
record("rules", sum(tables.values()))  # hidden
