import itertools
from string import ascii_letters

import jax
import jax.numpy as jnp
import numpy as np

from bookexec.facts import record  # hidden

DTYPES = [  # the standard dtypes with x64 off
    "bool",
    "uint8",
    "uint16",
    "uint32",
    "int8",
    "int16",
    "int32",
    "bfloat16",
    "float16",
    "float32",
    "complex64",
]


def short(name):  # int32 -> i32, bfloat16 -> bf16, bool -> b1
    letters = "bf" if name.startswith("bfloat") else name[0]
    return "b1" if name == "bool" else letters + name.lstrip(ascii_letters)


STRONG = [short(name) for name in DTYPES]
WIDE = [
    "uint64",
    "int64",
    "float64",
    "complex128",
]  # NumPy's answers use them
LONG = {short(name): name for name in DTYPES + WIDE}
WEAK = {"i*": 2, "f*": 2.0, "c*": 2j}  # Python scalars: weakly typed
names = STRONG + list(WEAK)


def node(name):
    return (
        jnp.asarray(WEAK[name])
        if name in WEAK
        else jnp.zeros((), LONG[name])
    )


# the result of a binary operation, with x64 off (the default)
def jax_label(a, b):
    aval = jax.typeof(node(a) + node(b))
    return (
        {"b": "i", "u": "i"}.get(aval.dtype.kind, aval.dtype.kind) + "*"
        if aval.weak_type
        else short(str(aval.dtype))
    )


def numpy_label(a, b):
    if "bf16" in (a, b) or (a in WEAK and b in WEAK):
        # NumPy has no bfloat16, and two Python scalars make no array
        return "-"
    operands = [WEAK[n] if n in WEAK else np.dtype(LONG[n]) for n in (a, b)]
    # NumPy 2: Python scalars are weak too
    return short(str(np.result_type(*operands)))


join = {
    (a, b): jax_label(a, b) for a, b in itertools.product(names, repeat=2)
}
print("JAX    " + "".join(f"{b:>5}" for b in names))
for a in names:
    print(f"{a:>5}  " + "".join(f"{join[a, b]:>5}" for b in names))
print(
    "NumPy  "
    + "".join(f"{b:>5}" for b in names)
    + "   (. where NumPy agrees)"
)
compared = differ = 0
for a in names:
    cells = [numpy_label(a, b) for b in names]
    compared += sum(c != "-" for c in cells)
    cells = [
        "." if got == join[a, b] else got
        for got, b in zip(cells, names, strict=True)
    ]
    differ += sum(c not in (".", "-") for c in cells)
    print(f"{a:>5}  " + "".join(f"{c:>5}" for c in cells))
print(f"NumPy differs in {differ} of {compared} cells")
record("numpy_differs", differ)  # hidden
record("compared", compared)  # hidden

# The order behind JAX's table: a <= b when a joined with b is b. Each type's
# next types up:
above = {a: {b for b in names if b != a and join[a, b] == b} for a in names}
for a in names:
    nearest = [
        b
        for b in names
        if b in above[a] and not any(b in above[c] for c in above[a])
    ]
    print(f"{a:>4} -> {', '.join(nearest) or '(top)'}")

# A lattice's join is associative; NumPy's table (without bfloat16) is not.
triples = list(itertools.product(names, repeat=3))
bad_jax = [
    t
    for t in triples
    if join[join[t[0], t[1]], t[2]] != join[t[0], join[t[1], t[2]]]
]


def np_join(a, b):
    return short(str(np.promote_types(LONG[a], LONG[b])))


np_triples = list(
    itertools.product([n for n in STRONG if n != "bf16"], repeat=3)
)
bad_np = [
    (a, b, c)
    for a, b, c in np_triples
    if np_join(np_join(a, b), c) != np_join(a, np_join(b, c))
]
print(f"JAX: {len(bad_jax)} of {len(triples)} triples depend on grouping")
print(f"NumPy: {len(bad_np)} of {len(np_triples)}, for example", end=" ")
record("jax_nonassoc", len(bad_jax))  # hidden
record("numpy_nonassoc", len(bad_np))  # hidden
u, i, f = bad_np[0]
print(
    f"({u}+{i})+{f} = {np_join(np_join(u, i), f)} but {u}+({i}+{f}) = "
    f"{np_join(u, np_join(i, f))}"
)
with jax.enable_x64(True):  # 64-bit types, for this block of code only
    print(
        "x64 on: i32+u32 ->", jnp.promote_types("int32", "uint32"), end=" | "
    )
    print(
        "i64+u64 ->",
        jax.typeof(jnp.zeros((), "int64") + jnp.zeros((), "uint64")),
    )
print("NumPy:  i32+u32 ->", np.promote_types("int32", "uint32"), end=" | ")
print("i64+u64 ->", np.promote_types("int64", "uint64"))
