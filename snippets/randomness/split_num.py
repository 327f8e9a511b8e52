import jax

key = jax.random.key(2024)
keys = jax.random.split(key, num=3)  # one call, three children
print("keys:", jax.typeof(keys))
first, second, third = keys  # an array of keys unpacks like any array
print("first:", jax.typeof(first))
print(
    "same first child as split(key)?",
    bool(
        (
            jax.random.key_data(keys[0])
            == jax.random.key_data(jax.random.split(key)[0])
        ).all()
    ),
)
