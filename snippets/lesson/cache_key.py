import jax
import jax.numpy as jnp

from bookexec.facts import claim, record  # hidden

traced_for = []  # the tree structures rescale was traced for


@jax.jit
def rescale(params, s):
    traced_for.append(jax.tree.structure(params))  # runs only while tracing
    return jax.tree.map(lambda p: p * s, params)


w = jnp.ones(3, dtype=jnp.bfloat16)
b = jnp.zeros(3, dtype=jnp.bfloat16)
calls = [
    ("tuple, s=2.0", (w, b), 2.0),
    ("tuple, s=0.5", (w, b), 0.5),  # only the value of s changed
    ("list, s=2.0", [w, b], 2.0),  # a list, not a tuple
    # a dict with the same two leaves
    ("dict, s=2.0", {"w": w, "b": b}, 2.0),
    ("tuple, s=float32(2.0)", (w, b), jnp.float32(2.0)),  # not weakly typed
]
for label, params, s in calls:
    before = len(traced_for)
    out = rescale(params, s)
    trace = "new trace" if len(traced_for) > before else "reused"
    result = jax.tree.leaves(out)[0].dtype
    print(f"{label:22} s: {jax.typeof(s)!s:11} {trace:9}  result: {result}")
record("calls", len(calls))  # hidden
record("traces", len(traced_for))  # hidden
record("treedefs", len({str(treedef) for treedef in traced_for}))  # hidden
# hidden: begin
claim("treedefs", ">=", 3, says="three different tree definitions")
claim("treedefs", "<=", 3, says="three different tree definitions")
# hidden: end
# a dict's leaves come in sorted key order
print(jax.tree.structure({"w": w, "b": b}))
