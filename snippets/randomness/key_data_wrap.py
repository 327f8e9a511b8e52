import jax
import numpy as np

key = jax.random.fold_in(jax.random.key(7), 2)
# the key's bits, as an ordinary uint32 array
words = jax.random.key_data(key)
print("key_data:", words, jax.typeof(words))

# a checkpoint stores the bits and the name of the generator
saved = np.asarray(words)
saved_impl = jax.random.key_impl(key)
print("key_impl:", saved_impl)
restored = jax.random.wrap_key_data(saved, dtype=saved_impl)  # a typed key
print("wrap_key_data:", jax.typeof(restored))
print(
    "same draws:",
    bool(
        (
            jax.random.uniform(restored, (3,))
            == jax.random.uniform(key, (3,))
        ).all()
    ),
)
