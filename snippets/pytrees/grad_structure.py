import jax
import jax.numpy as jnp

from bookexec.facts import record  # hidden

params = {
    "hidden": {"w": jnp.full((3, 4), 0.1), "b": jnp.zeros(4)},
    "readout": {"w": jnp.full(4, 0.2)},
}


def loss(params, x, y):
    h = jnp.tanh(x @ params["hidden"]["w"] + params["hidden"]["b"])
    return jnp.mean((h @ params["readout"]["w"] - y) ** 2)


grads = jax.grad(loss)(params, jnp.ones((5, 3)), jnp.zeros(5))
params_def = jax.tree.structure(params)
grads_def = jax.tree.structure(grads)
print("params:", params_def)
print("grads: ", grads_def)
print("same structure:", grads_def == params_def)
record("same_structure", str(grads_def == params_def))  # hidden
print("grad shapes:", jax.tree.map(jnp.shape, grads))
