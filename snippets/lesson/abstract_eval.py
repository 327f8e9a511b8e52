import jax
import jax.numpy as jnp

from bookexec.facts import record  # hidden


def score(w, x):
    return jnp.tanh(x @ w).sum()


# Abstract values only: no buffer of this size is ever allocated.
w = jax.ShapeDtypeStruct((50_000, 40_000), jnp.float32)
x = jax.ShapeDtypeStruct((1_000, 50_000), jnp.float32)
gb = w.size * w.dtype.itemsize // 10**9
record("w_gigabytes", gb)  # hidden
print(f"w would need {gb} GB")

print(jax.eval_shape(score, w, x))
print(jax.eval_shape(jax.grad(score), w, x))
many_x = jax.ShapeDtypeStruct((8, 1_000, 50_000), jnp.float32)
print(
    jax.eval_shape(jax.vmap(jax.grad(score), in_axes=(None, 0)), w, many_x)
)

# dot_general's rule: (contracting dims, batch dims) of each operand.
a = jax.ShapeDtypeStruct((8, 3, 4), jnp.float32)
b = jax.ShapeDtypeStruct((8, 4, 5), jnp.float32)
dims = (((2,), (1,)), ((0,), (0,)))
print(jax.eval_shape(lambda a, b: jax.lax.dot_general(a, b, dims), a, b))
