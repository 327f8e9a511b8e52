import collections

import jax

Point = collections.namedtuple("Point", ["x", "y"])
leaves, treedef = jax.tree.flatten(Point(y=2.0, x=1.0))
print("namedtuple: ", leaves, treedef)
print(
    "its paths:  ",
    [
        jax.tree_util.keystr(p)
        for p, _ in jax.tree.leaves_with_path(Point(1.0, 2.0))
    ],
)

ordered = collections.OrderedDict(b=1, a=2)
print("OrderedDict:", *jax.tree.flatten(ordered))
print("dict:       ", *jax.tree.flatten(dict(b=1, a=2)))
