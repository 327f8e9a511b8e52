import jax
import jax.numpy as jnp

from bookexec.facts import record  # hidden

shapes = [(2, 3), (3, 4)]  # meant as two shapes, one per array to make
print("leaves:   ", jax.tree.leaves(shapes))
print("structure:", jax.tree.structure(shapes))
record("leaf_count", len(jax.tree.leaves(shapes)))  # hidden

# jnp.ones(2), jnp.ones(3), ...: one array per number
wrong = jax.tree.map(jnp.ones, shapes)
print("without is_leaf:", jax.tree.map(jnp.shape, wrong))

right = jax.tree.map(
    jnp.ones, shapes, is_leaf=lambda t: isinstance(t, tuple)
)
print("with is_leaf:   ", [a.shape for a in right])
