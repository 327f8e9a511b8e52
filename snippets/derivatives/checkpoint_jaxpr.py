import jax
import jax.numpy as jnp


def block(x):
    return jnp.sin(jnp.sin(x))


def model(x):
    return jnp.sum(jax.checkpoint(block)(x))


print(jax.make_jaxpr(jax.grad(model))(jnp.ones(3)))
sines = sum(
    e.primitive.name == "sin"
    for e in jax.make_jaxpr(jax.grad(model))(jnp.ones(3)).eqns
)
lowered = jax.jit(jax.grad(model)).lower(jnp.ones(3)).as_text()
print("sin in the jaxpr:", sines)
# hidden: begin
from bookexec.facts import record  # noqa: E402

SPELLED = ["no", "one", "two", "three", "four", "five", "six"]

# hidden: end
record("jaxpr_sins", SPELLED[sines])  # hidden
print("sine in the jitted program:", lowered.count("stablehlo.sine"))
record("lowered_sins", SPELLED[lowered.count("stablehlo.sine")])  # hidden
