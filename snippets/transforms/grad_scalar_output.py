import jax
import jax.numpy as jnp


def double(x):
    return 2.0 * x  # three outputs for three inputs


x = jnp.ones(3)
print("grad of the sum:", jax.grad(lambda x: double(x).sum())(x))
print("whole Jacobian:\n", jax.jacrev(double)(x))
jax.grad(double)(x)
