import jax
import jax.numpy as jnp

from bookexec.facts import record  # hidden

model = {
    "encoder": {"w": jnp.ones((3, 2)), "b": jnp.zeros(2)},
    "heads": (jnp.ones(2), jnp.ones(4)),
    "temperature": 0.5,
    "mask": None,
}
leaves, treedef = jax.tree.flatten(model)
for leaf in leaves:
    print("leaf:", jax.typeof(leaf))
print("treedef:", treedef)
print("leaves:", treedef.num_leaves)
record("leaves", treedef.num_leaves)  # hidden
print("nodes: ", treedef.num_nodes)
record("nodes", treedef.num_nodes)  # hidden
