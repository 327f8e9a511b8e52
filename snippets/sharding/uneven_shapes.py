# grid, hinted, show, moved, NamedSharding and P come from the blocks
# above
import jax
import jax.numpy as jnp

from bookexec.facts import record  # hidden

# two data halves cannot share five rows evenly
five_rows = jnp.ones((5, 12))
try:
    jax.device_put(five_rows, NamedSharding(grid, P("data", None)))
except ValueError as err:
    print(f"device_put: {type(err).__name__}: {err}")
try:
    NamedSharding(hinted, P("data", None)).shard_shape(five_rows.shape)
except ValueError as err:
    # IndivisibleError, a subclass that JAX does not export publicly
    print(f"shard_shape: {type(err).__name__}: {err}")


# six rows in, seven out: an intermediate the mesh does not divide
def grow(x):
    seven = jnp.concatenate([x, x[:1]])
    jax.debug.inspect_array_sharding(seven, callback=show("seven rows"))
    return seven


placed = jax.device_put(
    jnp.ones((6, 12)), NamedSharding(hinted, P("data", "model"))
)
print("collectives:", moved(grow, placed))
print("returned:", jax.jit(grow)(placed).sharding.spec)
record("grow_collectives", in_words(collectives(grow, placed)))  # hidden
