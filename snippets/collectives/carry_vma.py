# ring, xs and P come from the first block
import jax
import jax.numpy as jnp
import numpy as np


def add_up(total, x):
    return total + x, None


# the carry starts as 0.0, the same on every device
def running_total(block):
    total, _ = jax.lax.scan(add_up, 0.0, block)
    return total[None]


try:
    jax.shard_map(
        running_total, mesh=ring, in_specs=P("i"), out_specs=P("i")
    )(xs)
except TypeError as err:
    print(f"TypeError: {err}")


def running_total_varying(block):
    # varying from the start
    start = jax.lax.pcast(jnp.float32(0.0), "i", to="varying")
    total, _ = jax.lax.scan(add_up, start, block)
    return total[None]


fixed = jax.shard_map(
    running_total_varying, mesh=ring, in_specs=P("i"), out_specs=P("i")
)
print("each device's total:", np.asarray(fixed(xs)))
