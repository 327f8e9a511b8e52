import jax

from bookexec.facts import record  # hidden

key = jax.random.key(42)  # the typed key
print(repr(key))
print("dtype:", key.dtype, " shape:", key.shape)
print("key data:", jax.random.key_data(key))
record("key_dtype", str(key.dtype))  # hidden

legacy = jax.random.PRNGKey(42)  # the legacy raw key
print(repr(legacy))
print("dtype:", legacy.dtype, " shape:", legacy.shape)
record("legacy_dtype", str(legacy.dtype))  # hidden
print("raw keys are read as:", jax.config.jax_default_prng_impl)
record("default_impl", jax.config.jax_default_prng_impl)  # hidden
