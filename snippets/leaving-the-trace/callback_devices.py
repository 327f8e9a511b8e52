import jax

# A fresh process: eight CPU devices, on any machine, before anything
# touches a device (with eight accelerators, leave out both lines).
jax.config.update("jax_platforms", "cpu")
jax.config.update("jax_num_cpu_devices", 8)

import jax.numpy as jnp  # noqa: E402
from jax.sharding import NamedSharding, SingleDeviceSharding  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

mesh = jax.make_mesh((8,), ("batch",))
xs = jax.device_put(jnp.arange(16.0), NamedSharding(mesh, P("batch")))
calls = []


def host_square(block):
    calls.append(block.shape)
    return block * block


def square(x, sharding=None):
    out = jax.ShapeDtypeStruct(x.shape, x.dtype)
    return jax.pure_callback(host_square, out, x, sharding=sharding) + 1.0


third = SingleDeviceSharding(jax.devices()[3])
per_device = jax.shard_map(
    square, mesh=mesh, in_specs=P("batch"), out_specs=P("batch")
)
for name, fn in [
    ("jit", jax.jit(square)),
    (
        "jit, sharding= device 3",
        jax.jit(lambda x: square(x, sharding=third)),
    ),
    ("shard_map", jax.jit(per_device)),
]:
    calls.clear()
    # the calls may still be running until then
    out = fn(xs).block_until_ready()
    print(f"{name}: {len(calls)} call(s), each on {sorted(set(calls))[0]}")
    print("  same values as xs * xs + 1:", bool(jnp.all(out == xs * xs + 1)))

pinned = jax.shard_map(
    lambda b: square(b, sharding=third),
    mesh=mesh,
    in_specs=P("batch"),
    out_specs=P("batch"),
)
try:
    jax.jit(pinned)(xs)
except NotImplementedError as err:
    print("shard_map with sharding=:", err)
