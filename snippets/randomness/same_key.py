import jax

key = jax.random.key(2024)
first = jax.random.normal(key, (4,))
second = jax.random.normal(key, (4,))
print(first)
print(second)
print("identical:", bool((first == second).all()))

# The same holds inside jit: the key is an argument like any other.
draw = jax.jit(lambda k: jax.random.normal(k, (4,)))
print("jitted identical:", bool((draw(key) == first).all()))
