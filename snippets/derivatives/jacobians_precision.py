import jax
import jax.numpy as jnp

W = jnp.array([[1.0, 2.0, 0.0], [0.0, -1.0, 3.0]])
x = jnp.array([1.0, 0.5, 2.0])


def field(x):
    return W @ jnp.sin(x)


# Every matrix product inside runs at full float32 precision, whatever the
# backend's default.
with jax.default_matmul_precision("highest"):
    forward = jax.jacfwd(field)(x)
    reverse = jax.jacrev(field)(x)
    by_hand = W * jnp.cos(x)
print(forward)
print("jacfwd equals jacrev:", bool(jnp.allclose(forward, reverse)))
print("by hand, W * cos(x):", bool(jnp.allclose(forward, by_hand)))
