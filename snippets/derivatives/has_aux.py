import jax
import jax.numpy as jnp


def fit(v, batch):  # the loss, and what a training loop would log beside it
    pred = jnp.tanh(batch @ v)
    return jnp.mean(pred**2), {"largest": pred.max()}


v, batch = jnp.ones(3), jnp.full((4, 3), 0.5)
grads, aux = jax.grad(fit, has_aux=True)(v, batch)
print("grad:", grads, " aux:", aux)
for jac in (jax.jacrev, jax.jacfwd):
    jacobian, _ = jac(fit, has_aux=True)(v, batch)
    print(
        f"{jac.__name__} equals grad:", bool(jnp.allclose(jacobian, grads))
    )
loss, pullback, _ = jax.vjp(fit, v, batch, has_aux=True)
print(
    "vjp: loss",
    loss,
    " pullback(1.0) equals grad:",
    bool(jnp.allclose(pullback(1.0)[0], grads)),
)
jax.grad(fit)(v, batch)  # the pair without has_aux
