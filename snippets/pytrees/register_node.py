import jax
import jax.numpy as jnp


class Gaussian:
    def __init__(self, mean, log_std, name):
        self.mean, self.log_std, self.name = mean, log_std, name


def flatten(g):  # (children, static data)
    return (g.mean, g.log_std), g.name


def unflatten(name, children):
    return Gaussian(*children, name)


jax.tree_util.register_pytree_node(Gaussian, flatten, unflatten)

prior = Gaussian(jnp.zeros(2), jnp.zeros(2), "prior")
print("structure:", jax.tree.structure(prior))
shifted = jax.tree.map(lambda leaf: leaf + 1.0, prior)
print(
    "tree.map: ",
    type(shifted).__name__,
    shifted.name,
    shifted.mean,
    shifted.log_std,
)
std = jax.jit(lambda g: jnp.exp(g.log_std))(prior)
print("jit:      ", std)
for path, _ in jax.tree.leaves_with_path(prior):
    print("path:     ", jax.tree_util.keystr(path), path)
