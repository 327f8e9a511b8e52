import jax
import jax.numpy as jnp
from jax.ad_checkpoint import checkpoint_name, print_saved_residuals


def two_layers(w, x):
    h = checkpoint_name(jnp.tanh(w @ x), "hidden")
    return jnp.sum(jnp.tanh(w @ h))


def two_layers_pre(w, x):  # the same function, with the name on the product w @ x
    z = checkpoint_name(w @ x, "hidden")
    return jnp.sum(jnp.tanh(w @ jnp.tanh(z)))


w, x = jnp.ones((4, 4)) / 4, jnp.ones(4)
keep_hidden = jax.checkpoint_policies.save_only_these_names("hidden")
print("nothing saveable (the default for checkpoint):")
print_saved_residuals(jax.checkpoint(two_layers), w, x)
print("save_only_these_names('hidden'):")
print_saved_residuals(jax.checkpoint(two_layers, policy=keep_hidden), w, x)
print(jax.make_jaxpr(two_layers)(w, x))


def backward(f, policy):
    """The backward remat2's first equations; the products XLA is given, and those it keeps."""
    block = jax.checkpoint(f, policy=policy)
    grad = jax.grad(lambda w, x: jnp.sin(block(w, x)))  # the value is read: a later layer
    remat = [e for e in jax.make_jaxpr(grad)(w, x).eqns if e.primitive.name == "remat2"][-1]
    starts = [e.primitive.name for e in remat.params["jaxpr"].eqns[:3]]
    lowered = jax.jit(grad).lower(w, x)
    dots = lowered.as_text().count("stablehlo.dot_general")
    outer = lowered.as_text().count("contracting_dims = [] x []")  # products that sum nothing
    compiled_dots = lowered.compile().as_text().count(" dot(")  # HLO after XLA's rewrites
    return starts, dots, outer, compiled_dots


# hidden: begin
from bookexec.facts import record  # noqa: E402

# hidden: end
for label, f in (("tanh(w @ x) named", two_layers), ("w @ x named", two_layers_pre)):
    key = "tanh" if f is two_layers else "pre"
    for policy_label, policy in (("default", None), ("policy", keep_hidden)):
        starts, dots, outer, compiled_dots = backward(f, policy)
        dots = record(f"{key}_{policy_label}_dots", dots)  # hidden
        compiled_dots = record(f"{key}_{policy_label}_compiled", compiled_dots)  # hidden
        print(f"{label}, {policy_label}: backward starts {starts}")
        print(f"  lowered: {dots} dot_generals ({outer} outer products)")
        print(f"  compiled: {compiled_dots} dots")
