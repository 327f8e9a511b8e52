import dis

import jax

# internal and version-bound (JAX 0.12): no public API reads these tables
from jax._src.interpreters import ad, batching, mlir

from bookexec.facts import record  # hidden

lowering = set(mlir._lowerings)
cpu_only = set(mlir._platform_specific_lowerings["cpu"]) - lowering
batch = set(batching.fancy_primitive_batchers)
jvp = set(ad.primitive_jvps)
plain_t, fancy_t = set(ad.primitive_transposes), set(ad.fancy_transposes)


# no return instruction in its code: every path through it raises
def only_raises(rule):
    while hasattr(rule, "func"):  # a functools.partial around the rule
        rule = rule.func
    code = getattr(rule, "__code__", None)
    return code is not None and not any(
        op.opname.startswith("RETURN") for op in dis.get_instructions(code)
    )


registered = plain_t | fancy_t
# the fancy rule is tried first
rules = {**ad.primitive_transposes, **ad.fancy_transposes}
refusing = {p for p in registered if only_raises(rules[p])}
transpose = registered - refusing
all_four = (lowering | cpu_only) & batch & jvp & transpose

rows = [
    ("lowering, any platform", "mlir._lowerings", lowering),
    (
        "lowering, CPU rule only",
        "mlir._platform_specific_lowerings",
        cpu_only,
    ),
    ("batching", "batching.fancy_primitive_batchers", batch),
    ("JVP", "ad.primitive_jvps", jvp),
    ("transpose (plain)", "ad.primitive_transposes", plain_t),
    ("transpose (fancy)", "ad.fancy_transposes", fancy_t),
    ("transpose, either", "the union of the two", registered),
    ("  of which only raise", "rules with no return", refusing),
    ("transpose that works", "either, less those", transpose),
    ("all four kinds", "runs on CPU, vmap, JVP, transpose", all_four),
]
print(f"JAX {jax.__version__}: primitives with a rule, by table")
for rule, table, prims in rows:
    print(f"  {rule:24} {table:35} {len(prims):4}")
# hidden: begin
facts = [
    "lowering",
    "cpu_only",
    "batching",
    "jvp",
    "transposes_plain",
    "transposes_fancy",
    "registered",
    "refusing",
    "transpose",
    "all_four",
]
for fact, (_, _, prims) in zip(facts, rows, strict=True):
    record(fact, len(prims))
# hidden: end
print(
    "batching.primitive_batchers is a",
    type(batching.primitive_batchers).__name__,
)
print("rules that only raise:", " ".join(sorted(p.name for p in refusing)))
refusing_names = sorted(p.name for p in refusing)  # hidden
record("refusing_names", ", ".join(f"`{name}`" for name in refusing_names))  # fmt: skip  # hidden


# by name: a set of primitives iterates in an order set by their ids
def names(table):
    return {p.name for p in table}


print("primitive    lower  batch  jvp  transpose")
for name in [
    "sin",
    "exp",
    "integer_pow",
    "mul",
    "neg",
    "add",
    "dot_general",
]:
    marks = [
        name in names(table) for table in (lowering, batch, jvp, transpose)
    ]
    cells = "  ".join(f"{'yes' if m else '-':5}" for m in marks)
    print(f"  {name:12} {cells}".rstrip())
# hidden: begin
untransposed = [
    n for n in ["sin", "exp", "integer_pow"] if n not in names(transpose)
]
record("no_transpose", ", ".join(f"`{n}`" for n in untransposed))
# hidden: end
