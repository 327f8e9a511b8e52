import jax
import jax.numpy as jnp

layer = {"w": jnp.ones(2), "b": None}  # a layer built without a bias


def is_none(t):
    return t is None


print("leaves:         ", jax.tree.leaves(layer))
print("leaves, is_leaf:", jax.tree.leaves(layer, is_leaf=is_none))
print("map:            ", jax.tree.map(lambda p: p is None, layer))
print(
    "map, is_leaf:   ",
    jax.tree.map(lambda p: p is None, layer, is_leaf=is_none),
)
