import jax
import jax.numpy as jnp


def fit(w, x):
    pred = jnp.tanh(x @ w)
    loss = jnp.mean(pred**2)
    # the loss, and something to log on the side
    return loss, {"largest": pred.max()}


w, x = jnp.ones(3), jnp.full((4, 3), 0.5)
both = jax.value_and_grad(fit, has_aux=True)
print(jax.make_jaxpr(both)(w, x))
(loss, aux), grads = both(w, x)
print("loss:", loss, " aux:", aux, " grad:", grads)
