import jax
import jax.numpy as jnp
from jax.tree_util import GetAttrKey


class KeyedGaussian:  # the Gaussian above, registered with key paths
    def __init__(self, mean, log_std, name):
        self.mean, self.log_std, self.name = mean, log_std, name


def flatten_with_keys(g):  # each child paired with the key that names it
    return (
        (GetAttrKey("mean"), g.mean),
        (GetAttrKey("log_std"), g.log_std),
    ), g.name


def unflatten(name, children):
    return KeyedGaussian(*children, name)


jax.tree_util.register_pytree_with_keys(
    KeyedGaussian, flatten_with_keys, unflatten
)

keyed = KeyedGaussian(jnp.zeros(2), jnp.zeros(2), "prior")
for path, _ in jax.tree.leaves_with_path(keyed):
    print("path:", jax.tree_util.keystr(path), path)
print("structure:", jax.tree.structure(keyed))
