# wave, total, xs and layers come from the block above
import jax


def show(x):
    print(repr(x))
    return x * 2.0


print("under vmap:")
jax.vmap(show)(xs)
print("under grad:")
jax.grad(lambda x: show(x).sum())(xs)
print("under jit(vmap(...)):")
jax.jit(jax.vmap(show))(xs)
