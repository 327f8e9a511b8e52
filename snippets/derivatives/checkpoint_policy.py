import jax
import jax.numpy as jnp
from jax.ad_checkpoint import checkpoint_name, print_saved_residuals


def two_layers(w, x):
    h = checkpoint_name(jnp.tanh(w @ x), "hidden")
    return jnp.sum(jnp.tanh(w @ h))


w, x = jnp.ones((4, 4)) / 4, jnp.ones(4)
keep_hidden = jax.checkpoint_policies.save_only_these_names("hidden")
print("nothing saveable (the default for checkpoint):")
print_saved_residuals(jax.checkpoint(two_layers), w, x)
print("save_only_these_names('hidden'):")
print_saved_residuals(jax.checkpoint(two_layers, policy=keep_hidden), w, x)
print(jax.make_jaxpr(two_layers)(w, x))
