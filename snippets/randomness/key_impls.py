import re

import jax

from bookexec.facts import record  # hidden


def draw(k):
    return jax.random.uniform(k, (4,))


# the generators the jax.random documentation lists for key(seed, dtype=...)
impls = [
    "philox2x32",
    "philox4x32",
    "rbg",
    "threefry2x32",
    "threefry4x32",
    "unsafe_rbg",
]
print("the generators, their key types, and how they lower:")
for impl in impls:
    key = jax.random.key(0, dtype=impl)
    hlo = jax.jit(draw).lower(key).as_text()
    words = jax.random.key_data(key).size
    unit = "word" if words == 1 else "words"
    rbg_op = "rng_bit_generator" in hlo
    print(
        f"  {impl:13} {jax.typeof(key)!s:11} {words} {unit:5}   "
        f"rng_bit_generator: {rbg_op}"
    )
studied = ("threefry2x32", "rbg", "unsafe_rbg")
record("others", ", ".join(f"`{i}`" for i in impls if i not in studied))  # fmt: skip  # hidden
print()

primitive_sets = []  # hidden
for impl in studied:
    key = jax.random.key(0, dtype=impl)
    closed = jax.make_jaxpr(draw)(key)
    body = closed.eqns[0].params["jaxpr"]  # the jaxpr of the inner jit
    hlo = jax.jit(draw).lower(key).as_text()
    print(f"{impl}:")
    print(
        "  key type:",
        jax.typeof(key),
        "  key_data:",
        jax.typeof(jax.random.key_data(key)),
    )
    print(
        "  jaxpr input:",
        closed.in_avals[0],
        "  primitives:",
        sorted({e.primitive.name for e in body.eqns}),
    )
    primitive_sets.append(sorted({e.primitive.name for e in body.eqns}))  # fmt: skip  # hidden
    functions = re.findall(r"func\.func \w+ @(\w+)", hlo)
    print(
        "  lowered functions:",
        functions,
        "  rng_bit_generator:",
        "rng_bit_generator" in hlo,
    )
    record(f"{impl}_type", str(jax.typeof(key)))  # hidden
    record(f"{impl}_words", jax.random.key_data(key).size)  # hidden
    record(f"{impl}_rbg", str("rng_bit_generator" in hlo))  # hidden
# hidden: begin
record(
    "same_primitives",
    str(all(p == primitive_sets[0] for p in primitive_sets)),
)
# hidden: end
