import jax

legacy = jax.random.PRNGKey(42)
# an ordinary uint32 array: arithmetic is allowed
print("legacy + 1 =", legacy + 1)

key = jax.random.key(42)
key + 1  # a typed key is not a number
