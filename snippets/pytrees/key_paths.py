import jax
import jax.numpy as jnp

from bookexec.facts import record  # hidden

model = {  # the model of the first block
    "encoder": {"w": jnp.ones((3, 2)), "b": jnp.zeros(2)},
    "heads": (jnp.ones(2), jnp.ones(4)),
    "temperature": 0.5,
    "mask": None,
}
pairs, treedef = jax.tree.flatten_with_path(model)
for path, leaf in pairs:
    print(f"{jax.tree_util.keystr(path):17} {jax.typeof(leaf)!s:13} {path}")
same = treedef == jax.tree.flatten(model)[1]
record("same_treedef", str(same))  # hidden
print("same treedef as flatten's:", same)


def decay(path, leaf):  # shrink only the leaves whose last key is "w"
    # keystr reads a dict key and a dataclass field alike
    last = jax.tree_util.keystr(path[-1:], simple=True)
    return leaf * 0.9 if last == "w" else leaf


decayed = jax.tree.map_with_path(decay, model)
print(
    "w after decay:",
    decayed["encoder"]["w"][0],
    " b unchanged:",
    decayed["encoder"]["b"],
)
print(
    "as a file path:",
    jax.tree_util.keystr(pairs[1][0], simple=True, separator="/"),
)
