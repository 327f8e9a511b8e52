import jax

keys = jax.random.split(jax.random.key(2024), num=3)


def one_draw(k):
    return jax.random.normal(k, (2,))


batched = jax.vmap(one_draw)(keys)  # one row per key
print(batched)
print(
    "row 1 equals one_draw(keys[1]):",
    bool((batched[1] == one_draw(keys[1])).all()),
)
closed = jax.make_jaxpr(jax.vmap(one_draw))(keys)
print("inputs:", closed.in_avals, " outputs:", closed.out_avals)
