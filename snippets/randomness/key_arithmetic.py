import jax

legacy = jax.random.PRNGKey(42)
print("legacy + 1 =", legacy + 1)  # an ordinary uint32 array: arithmetic is allowed

key = jax.random.key(42)
key + 1  # a typed key is not a number
