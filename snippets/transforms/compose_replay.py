import jax
import jax.extend as jex
import jax.numpy as jnp


def wave(x):
    return jnp.sin(x) * x


xs = jnp.linspace(0.0, 1.0, 4)

# Let grad produce its jaxpr, then hand vmap nothing but that jaxpr.
grad_jaxpr = jax.make_jaxpr(jax.grad(wave))(0.5)
# a function that just evaluates the jaxpr
replay = jex.core.jaxpr_as_fun(grad_jaxpr)
from_jaxpr = jax.make_jaxpr(jax.vmap(lambda x: replay(x)[0]))(xs)
from_python = jax.make_jaxpr(jax.vmap(jax.grad(wave)))(xs)
print("same jaxpr:", str(from_jaxpr) == str(from_python))

# The other order: vmap inside, grad outside, then jit.
outer = jax.jit(jax.grad(lambda x: jnp.sum(jax.vmap(wave)(x))))
print(jax.make_jaxpr(outer)(xs))
print(
    "same slopes:",
    bool(jnp.allclose(outer(xs), jax.vmap(jax.grad(wave))(xs))),
)
