import jax
import jax.numpy as jnp
from jax.ad_checkpoint import checkpoint_name, print_saved_residuals

from bookexec.facts import record  # hidden


def two_layers_pre(w, x):  # the name is on the first product, w @ x
    z = checkpoint_name(w @ x, "hidden")
    return jnp.sum(jnp.tanh(w @ jnp.tanh(z)))


def two_layers(w, x):  # the same function, with the name on tanh(w @ x)
    h = checkpoint_name(jnp.tanh(w @ x), "hidden")
    return jnp.sum(jnp.tanh(w @ h))


w, x = jnp.ones((4, 4)) / 4, jnp.ones(4)
keep_hidden = jax.checkpoint_policies.save_only_these_names("hidden")
print("nothing saveable (the default for checkpoint):")
print_saved_residuals(jax.checkpoint(two_layers_pre), w, x)
print("save_only_these_names('hidden'):")
print_saved_residuals(
    jax.checkpoint(two_layers_pre, policy=keep_hidden), w, x
)
print(jax.make_jaxpr(two_layers_pre)(w, x))


def backward(f, policy):
    """The backward remat2's first equations, and the matrix products of the
    whole gradient."""
    block = jax.checkpoint(f, policy=policy)
    # the value is read, as by a later layer
    grad = jax.grad(lambda w, x: jnp.sin(block(w, x)))
    remat = [
        e
        for e in jax.make_jaxpr(grad)(w, x).eqns
        if e.primitive.name == "remat2"
    ][-1]
    starts = [e.primitive.name for e in remat.params["jaxpr"].eqns[:3]]
    # the program jit hands to XLA, after dead code is dropped
    dots = jax.jit(grad).lower(w, x).as_text().count("stablehlo.dot_general")
    return starts, dots


for label, f in (
    ("w @ x named", two_layers_pre),
    ("tanh(w @ x) named", two_layers),
):
    key = "pre" if f is two_layers_pre else "tanh"  # hidden
    for policy_label, policy in (("default", None), ("policy", keep_hidden)):
        starts, dots = backward(f, policy)
        record(f"{key}_{policy_label}_dots", dots)  # hidden
        print(
            f"{label}, {policy_label}: backward starts {starts}, {dots} "
            "dot_generals"
        )
