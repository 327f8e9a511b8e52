import dataclasses

import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Particle:
    position: jax.Array
    velocity: jax.Array
    label: str = dataclasses.field(default="", metadata=dict(static=True))


dust = Particle(jnp.zeros(2), jnp.ones(2), label="dust")
leaves, treedef = jax.tree.flatten(dust)
print("leaves: ", leaves)
print("treedef:", treedef)
