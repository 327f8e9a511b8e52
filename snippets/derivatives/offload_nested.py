import jax
import jax.numpy as jnp
from jax.ad_checkpoint import checkpoint_name, print_saved_residuals

w = jnp.full((4, 4), 0.1)
x = jnp.ones(4)


def layer(w, h):
    return jnp.tanh(w @ h)


def two_layers(w, x):
    hidden = checkpoint_name(layer(w, x), "hidden")
    return jnp.sum(layer(w, hidden))


offload = jax.checkpoint_policies.save_and_offload_only_these_names(
    names_which_can_be_saved=[],
    names_which_can_be_offloaded=["hidden"],
    offload_src="device",
    offload_dst="pinned_host",
)
offloaded = jax.checkpoint(two_layers, policy=offload)
print("offload policy:")
print_saved_residuals(offloaded, w, x)
same = jnp.allclose(
    jax.jit(jax.grad(offloaded))(w, x), jax.grad(two_layers)(w, x)
)
print("same gradient:", bool(same))


def four_layers(w, x):  # two checkpointed halves
    half = jax.checkpoint(lambda h: layer(w, layer(w, h)))
    return jnp.sum(half(half(x)))


print("nested, inner only:")
print_saved_residuals(four_layers, w, x)
print("nested, outer too:")
print_saved_residuals(jax.checkpoint(four_layers), w, x)
