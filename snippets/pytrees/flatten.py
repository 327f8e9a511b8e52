import jax
import jax.numpy as jnp

from bookexec.facts import record

model = {
    "encoder": {"w": jnp.ones((3, 2)), "b": jnp.zeros(2)},
    "heads": (jnp.ones(2), jnp.ones(4)),
    "temperature": 0.5,
    "mask": None,
}
leaves, treedef = jax.tree.flatten(model)
for leaf in leaves:
    print("leaf:", type(leaf).__name__, getattr(leaf, "shape", leaf))
print("treedef:", treedef)
print("leaves:", record("leaves", treedef.num_leaves))
print("nodes: ", record("nodes", treedef.num_nodes))
