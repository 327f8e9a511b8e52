import jax

from bookexec.facts import record  # hidden

# model is the dict of the first block
pairs, treedef = jax.tree_util.tree_flatten_with_path(model)
for path, leaf in pairs:
    print(f"{jax.tree_util.keystr(path):17} {jax.typeof(leaf)!s:13} {path}")
same = str(treedef == jax.tree.flatten(model)[1])
record("same_treedef", same)  # hidden
print("same treedef as flatten's:", same)


def decay(path, leaf):  # shrink only the leaves whose last key is "w"
    last = path[-1]
    return leaf * 0.9 if getattr(last, "key", None) == "w" else leaf


decayed = jax.tree_util.tree_map_with_path(decay, model)
print("w after decay:", decayed["encoder"]["w"][0], " b unchanged:", decayed["encoder"]["b"])
print("as a file path:", jax.tree_util.keystr(pairs[1][0], simple=True, separator="/"))
