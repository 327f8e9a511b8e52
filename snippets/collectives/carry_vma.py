# ring, xs and P come from the first block
import jax
import jax.numpy as jnp
import numpy as np


def add_up(total, x):
    return total + x, None


def running_total(block):  # the carry starts as 0.0, the same on every device
    total, _ = jax.lax.scan(add_up, 0.0, block)
    return total[None]


try:
    jax.shard_map(running_total, mesh=ring, in_specs=P("i"), out_specs=P("i"))(xs)
except TypeError as err:
    print(f"TypeError: {err}")


def running_total_varying(block):
    start = jax.lax.pcast(jnp.float32(0.0), "i", to="varying")  # varying from the start
    total, _ = jax.lax.scan(add_up, start, block)
    return total[None] / jax.lax.axis_size("i")  # axis_size: the devices along "i"


fixed = jax.shard_map(running_total_varying, mesh=ring, in_specs=P("i"), out_specs=P("i"))
print("each device's total / axis_size:", np.asarray(fixed(xs)))
