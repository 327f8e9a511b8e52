import jax
import jax.numpy as jnp


@jax.custom_vjp
def clip_gradient(limit, x):
    return x  # the identity on the way forward


def clip_gradient_fwd(limit, x):
    return x, limit  # the residual: what the backward pass needs


def clip_gradient_bwd(limit, g):
    # One cotangent per input; None for the limit, which is not
    # differentiated.
    return None, jnp.clip(g, -limit, limit)


clip_gradient.defvjp(clip_gradient_fwd, clip_gradient_bwd)


def energy(x):
    return jnp.sum((10.0 * x) ** 2)


def clipped_energy(x, limit):
    return jnp.sum(clip_gradient(limit, 10.0 * x) ** 2)


x = jnp.array([0.01, 0.5, -2.0])
print("same value:    ", energy(x), clipped_energy(x, 1.0))
print("plain grad:    ", jax.grad(energy)(x))
print("clipped grad:  ", jax.grad(clipped_energy)(x, 1.0))
print("traced limit:  ", jax.jit(jax.grad(clipped_energy))(x, 2.0))
print(jax.make_jaxpr(jax.grad(clipped_energy))(x, 1.0))
