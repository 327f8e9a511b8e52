import jax
import jax.numpy as jnp
from jax.ad_checkpoint import print_saved_residuals


# one layer of a ten-layer stack: two matrix products, two tanh
def step(carry, w):
    return jnp.tanh(w @ jnp.tanh(w @ carry)), None


def stack(step):
    return lambda ws, x: jnp.sum(jax.lax.scan(step, x, ws)[0])


ws, x = jnp.ones((10, 4, 4)) / 4, jnp.ones(4)
print("plain body:")
print_saved_residuals(stack(step), ws, x)
print("checkpointed body:")
print_saved_residuals(stack(jax.checkpoint(step)), ws, x)
body = (
    jax.make_jaxpr(jax.grad(stack(jax.checkpoint(step))))(ws, x)
    .eqns[-1]
    .params["jaxpr"]
)
print("backward scan body:", [e.primitive.name for e in body.eqns])
