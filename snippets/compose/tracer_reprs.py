# xs comes from the first block
import jax


def show(x):
    print(f"{type(x).__name__} prints as {x!r}")  # the class, then its repr
    return x * 2.0


print("under vmap:")
jax.vmap(show)(xs)
print("under grad:")
jax.grad(lambda x: show(x).sum())(xs)
print("under jit:")
jax.jit(show)(xs)
print("under jit(vmap(...)):")
jax.jit(jax.vmap(show))(xs)
