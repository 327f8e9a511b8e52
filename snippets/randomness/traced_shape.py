import jax


@jax.jit
def noise(key, n):
    return jax.random.normal(key, (n,))  # n is a tracer here


noise(jax.random.key(0), 3)
