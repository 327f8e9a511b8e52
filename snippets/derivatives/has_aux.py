import jax
import jax.numpy as jnp


def fit(v, batch):  # the loss, and what a training loop would log beside it
    pred = jnp.tanh(batch @ v)
    return jnp.mean(pred**2), {"largest": pred.max()}


v, batch = jnp.ones(3), jnp.full((4, 3), 0.5)
grads, aux = jax.grad(fit, has_aux=True)(v, batch)
print("grad:", grads, " aux:", aux)
jac, _ = jax.jacrev(fit, has_aux=True)(v, batch)
print("jacrev equals grad:", bool(jnp.allclose(jac, grads)))
loss, pullback, _ = jax.vjp(fit, v, batch, has_aux=True)
print("vjp: loss", loss, " pullback(1.0) equals grad:", bool(jnp.allclose(pullback(1.0)[0], grads)))
jax.grad(fit)(v, batch)  # the pair without has_aux
