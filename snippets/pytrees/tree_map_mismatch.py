import jax
import jax.numpy as jnp

params = {
    "hidden": {"w": jnp.full((3, 4), 0.1), "b": jnp.zeros(4)},
    "readout": {"w": jnp.full(4, 0.2)},
}
hidden_only = {
    "hidden": {"w": jnp.ones((3, 4)), "b": jnp.ones(4)}
}  # a gradient without the readout
jax.tree.map(lambda p, g: p - 0.1 * g, params, hidden_only)
