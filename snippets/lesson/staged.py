import jax
import jax.numpy as jnp


def scaled_softplus(x, beta):
    return jnp.log1p(jnp.exp(beta * x)) / beta


traced = jax.jit(scaled_softplus, static_argnums=1).trace(jnp.ones(4), 2.0)
print(traced.jaxpr)
print(traced.lower().as_text())
