import jax
import jax.numpy as jnp

from bookexec.facts import record  # hidden

# a small model's weights
shapes = {"embed": (5, 3), "hidden": (3, 3), "out": (3, 1)}

# One key per leaf, arranged in the same tree as the parameters.
leaves, treedef = jax.tree.flatten(
    shapes, is_leaf=lambda s: isinstance(s, tuple)
)
key_tree = jax.tree.unflatten(
    treedef, jax.random.split(jax.random.key(0), len(leaves))
)
print(jax.tree.map(jax.typeof, key_tree))

# each shape tuple sits where key_tree has a key, so each key meets a shape
params = jax.tree.map(
    lambda k, s: jax.random.normal(k, s) * 0.1, key_tree, shapes
)
print(jax.tree.map(jnp.shape, params))
record("n_keys", len(jax.tree.leaves(key_tree)))  # hidden


@jax.jit
def init(keys):  # a tree of keys is a pytree argument like any other
    return jax.tree.map(lambda k: jax.random.uniform(k, (2,)), keys)


print(jax.tree.map(lambda a: a.dtype, init(key_tree)))
