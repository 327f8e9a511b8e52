import jax


def outer(x):
    def inner(y):
        return x * y  # a tracer of the outer trace meets one of the inner

    # x is foreign here: a constant binder
    print(jax.make_jaxpr(jax.grad(inner))(1.0))
    return jax.grad(inner)(1.0)


nested = jax.grad(outer)(2.0)
print("grad of grad:", nested)
# d/dx [x * d/dy (x + y)] is d/dx [x * 1] = 1: the two derivatives do not mix
confusion = jax.grad(lambda x: x * jax.grad(lambda y: x + y)(1.0))(1.0)
print("no perturbation confusion:", confusion)
