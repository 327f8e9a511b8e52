# Cyclic_shift_p comes from the blocks above
from jax._src.interpreters import ad, batching, mlir

from bookexec.facts import record  # hidden

tables = {
    "lowering": cyclic_shift_p in mlir._lowerings,
    "JVP": cyclic_shift_p in ad.primitive_jvps,
    "transpose": cyclic_shift_p in ad.primitive_transposes or cyclic_shift_p in ad.fancy_transposes,
    "batching": cyclic_shift_p in batching.fancy_primitive_batchers,
}
for table, present in tables.items():
    print(f"{table:10} rule registered: {present}")
record("rules", sum(tables.values()))  # hidden
