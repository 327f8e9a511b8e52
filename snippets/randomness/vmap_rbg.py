import jax

from bookexec.facts import record  # hidden


def one_draw(k):
    return jax.random.normal(k, (2,))


for impl in (
    "threefry2x32",
    "threefry4x32",
    "philox2x32",
    "philox4x32",
    "rbg",
    "unsafe_rbg",
):
    keys = jax.random.split(jax.random.key(2024, dtype=impl), num=3)
    batched = jax.vmap(one_draw)(keys)
    # the true map over the same keys
    looped = jax.numpy.stack([one_draw(k) for k in keys])
    # the whole batch from the first key
    from_first = jax.random.normal(keys[0], (3, 2))
    per_key = bool((batched == looped).all())
    first = bool((batched == from_first).all())
    print(
        f"{impl:13} vmap equals the loop: {per_key!s:5}  equals "
        f"normal(keys[0], (3, 2)): {first}"
    )
    record(f"{impl}_per_key", str(per_key))  # hidden
    record(f"{impl}_first", str(first))  # hidden
