import jax
import jax.numpy as jnp

from bookexec.facts import record  # hidden

keys = []


@jax.jit
def rescale(params, s):
    keys.append((jax.tree.structure(params), str(s.aval)))
    return jax.tree.map(lambda p: p * s, params)


w = jnp.ones(3, dtype=jnp.bfloat16)
b = jnp.zeros(3, dtype=jnp.bfloat16)
calls = [
    ((w, b), 2.0),
    ((w, b), 0.5),  # same key: only the value of s changed
    ([w, b], 2.0),  # a list, not a tuple
    ({"w": w, "b": b}, 2.0),  # a dict with the same two leaves
    ((w, b), jnp.float32(2.0)),  # a float32 that is not weakly typed
]
for params, s in calls:
    out = rescale(params, s)
    print(jax.tree.leaves(out)[0].dtype, end="  ")
print()
record("calls", len(calls))  # hidden
record("traces", len(keys))  # hidden
record("treedefs", len({str(treedef) for treedef, _ in keys}))  # hidden
for treedef, s_type in keys:
    print(s_type, treedef)
