import jax

hidden_only = {"hidden": grads["hidden"]}  # a gradient that left the readout out
jax.tree.map(lambda p, g: p - 0.1 * g, params, hidden_only)
