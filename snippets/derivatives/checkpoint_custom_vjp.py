# a custom_vjp function inside jax.checkpoint
import jax
import jax.numpy as jnp
from jax.ad_checkpoint import print_saved_residuals


@jax.custom_vjp
def clipped_sin(x):
    return jnp.sin(x)


def clipped_sin_fwd(x):
    jax.debug.print("forward rule ran")
    return jnp.sin(x), jnp.cos(x)


def clipped_sin_bwd(cos_x, g):
    return (jnp.clip(g * cos_x, -0.5, 0.5),)


clipped_sin.defvjp(clipped_sin_fwd, clipped_sin_bwd)


def loss(x):
    return jnp.sum(clipped_sin(x) ** 2)


xs = jnp.arange(3.0)
for name, f in [
    ("custom_vjp", loss),
    ("custom_vjp under checkpoint", jax.checkpoint(loss)),
]:
    print(name + ":")
    print_saved_residuals(f, xs)
    print(jax.jit(jax.grad(f))(xs))
