import jax
import jax.numpy as jnp

from bookexec.facts import record  # hidden

key = jax.random.key(0)
at_once = jax.random.normal(key, (4,))  # four numbers from one key
halves = jnp.concatenate(
    [jax.random.normal(k, (2,)) for k in jax.random.split(key)]
)
one_by_one = jnp.stack(
    [jax.random.normal(k) for k in jax.random.split(key, 4)]
)
print("normal(key, (4,))          ", at_once)
print("two halves from split(key) ", halves)
print("four scalars, split(key, 4)", one_by_one)
print("normal(key, (2,))          ", jax.random.normal(key, (2,)))

record("halves_equal", str(bool(jnp.array_equal(at_once, halves))))  # hidden
record("scalars_equal", str(bool(jnp.array_equal(at_once, one_by_one))))  # fmt: skip  # hidden
# hidden: begin
record(
    "prefix_equal",
    str(bool(jnp.array_equal(at_once[:2], jax.random.normal(key, (2,))))),
)
# hidden: end
partitionable = str(jax.config.jax_threefry_partitionable)
record("partitionable", partitionable)  # hidden
print("jax_threefry_partitionable:", partitionable)
# the older scheme: the prefix no longer matches
with jax.threefry_partitionable(False):
    prefix_off = jnp.array_equal(
        jax.random.normal(key, (4,))[:2], jax.random.normal(key, (2,))
    )
print("prefix equal with it off:", str(bool(prefix_off)))
record("prefix_equal_off", str(bool(prefix_off)))  # hidden
# the halves and the scalars share two values: split(key, 4) begins with
# split(key)'s children
four, two = jax.random.split(key, 4), jax.random.split(key)
children_prefix = bool(
    jnp.array_equal(jax.random.key_data(four[:2]), jax.random.key_data(two))
)
print("split(key, 4)[:2] equals split(key):", str(children_prefix))
record("children_prefix", str(children_prefix))  # hidden
child = jax.random.split(key)[0]
scalar_first = bool(
    jax.random.normal(child) == jax.random.normal(child, (2,))[0]
)
print("a scalar draw is the first of a (2,) draw:", str(scalar_first))
record("scalar_first", str(scalar_first))  # hidden
