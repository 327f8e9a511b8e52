# feats comes from the blocks above
import jax
import jax.numpy as jnp

from bookexec.facts import record  # hidden

on_grid = jnp.sin(feats) + 1  # eager: no jit, no mesh context
print("sin(feats) + 1:", jax.typeof(on_grid), on_grid.sharding.spec)
print("same sharding as feats:", on_grid.sharding == feats.sharding)
record("same_sharding", str(on_grid.sharding == feats.sharding))  # hidden

loose = jnp.ones((6, 12))  # created without a placement
print(
    "committed: feats",
    feats.committed,
    "| loose",
    loose.committed,
    "on",
    loose.devices(),
)
print("feats + loose:", jax.typeof(feats + loose))

# committed to device 3
pinned = jax.device_put(jnp.ones((6, 12)), jax.devices()[3])
try:
    feats + pinned
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
try:
    # pinned stays on device 3
    feats + jax.reshard(pinned, feats.sharding)
except ValueError as err:
    print(f"with reshard: {type(err).__name__}: {err}")
# uncommitted: free to go anywhere
spread = jax.reshard(loose, feats.sharding)
print(
    "reshard(loose):",
    jax.typeof(spread),
    "on",
    len(spread.devices()),
    "devices",
)
print(
    "with device_put:",
    jax.typeof(feats + jax.device_put(pinned, feats.sharding)),
)
