import dataclasses

import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Particle:
    position: jax.Array
    velocity: jax.Array
    label: str = jax.tree.static(default="")


dust = Particle(jnp.zeros(2), jnp.ones(2), label="dust")
leaves, treedef = jax.tree.flatten(dust)
print("leaves: ", leaves)
print("treedef:", treedef)
paths = jax.tree.flatten_with_path(dust)[0]
print(
    "paths:  ",
    [jax.tree_util.keystr(path) for path, _ in paths],
    type(paths[0][0][0]).__name__,
)
