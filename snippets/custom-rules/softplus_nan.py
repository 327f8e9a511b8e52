import jax
import jax.numpy as jnp


def softplus(x):
    return jnp.log1p(jnp.exp(x))  # exp(100) overflows float32


def guarded(x):
    # for large x, softplus(x) ≈ x
    return jnp.where(x > 30.0, x, jnp.log1p(jnp.exp(x)))


for fn in (softplus, guarded):
    print(
        f"{fn.__name__:9} value at 100: {fn(100.0)}   slope at 100: "
        f"{jax.grad(fn)(100.0)}"
    )
print(f"jax.nn.softplus value at 100: {jax.nn.softplus(100.0)}", end="   ")
print(f"slope at 100: {jax.grad(jax.nn.softplus)(100.0)}")
