import jax
import jax.numpy as jnp


def wobble(x):
    return jnp.sin(x) * x


x = jnp.array([0.5, 1.0, 2.0])
y, pullback = jax.vjp(wobble, x)
# the pullback is a pytree: its leaves are the residuals
residuals = jax.tree.leaves(pullback)
print(type(pullback).__name__, "holding", len(residuals), "arrays:")
for r in residuals:
    print(" ", r)


@jax.jit
# a pullback can cross jit like any pytree
def backward(pullback, cotangent):
    return pullback(cotangent)


print("through jit:", backward(pullback, jnp.ones(3)))
