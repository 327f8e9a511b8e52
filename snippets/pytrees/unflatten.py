import jax
import jax.numpy as jnp

model = {
    "encoder": {"w": jnp.ones((3, 2)), "b": jnp.zeros(2)},
    "heads": (jnp.ones(2), jnp.ones(4)),
    "temperature": 0.5,
    "mask": None,
}
leaves, treedef = jax.tree.flatten(model)

labels = [f"leaf{i}" for i in range(treedef.num_leaves)]
print(jax.tree.unflatten(treedef, labels))

doubled = jax.tree.unflatten(treedef, [2 * leaf for leaf in leaves])
print("doubled temperature:", doubled["temperature"])
print("doubled first head: ", doubled["heads"][0])
