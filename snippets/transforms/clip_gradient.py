from functools import partial

import jax
import jax.numpy as jnp


# `limit` is a setting, not something to differentiate: nondiff_argnums keeps it out of the rule.
@partial(jax.custom_vjp, nondiff_argnums=(0,))
def clip_gradient(limit, x):
    return x  # the identity on the way forward


def clip_gradient_fwd(limit, x):
    return x, None  # nothing to keep for the backward pass


def clip_gradient_bwd(limit, residuals, g):
    return (jnp.clip(g, -limit, limit),)  # clip the cotangent on the way back


clip_gradient.defvjp(clip_gradient_fwd, clip_gradient_bwd)


def energy(x):
    return jnp.sum((10.0 * x) ** 2)


def clipped_energy(x):
    return jnp.sum(clip_gradient(1.0, 10.0 * x) ** 2)


x = jnp.array([0.01, 0.5, -2.0])
print("same value:    ", energy(x), clipped_energy(x))
print("plain grad:    ", jax.grad(energy)(x))
print("clipped grad:  ", jax.grad(clipped_energy)(x))
print(jax.make_jaxpr(jax.grad(clipped_energy))(x))
