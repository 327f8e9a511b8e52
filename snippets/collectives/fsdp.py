# ring and P come from the first block
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding

# 32 examples, four per device
inputs = jnp.arange(256.0).reshape(32, 8) / 100
targets = jnp.sin(jnp.arange(32.0))
w1 = jnp.arange(128.0).reshape(8, 16) / 64 - 1  # the weights, whole
w2 = jnp.cos(jnp.arange(16.0))


def loss(params, x, y):  # mean squared error of a two-layer network
    w1, w2 = params
    return jnp.mean((jnp.tanh(x @ w1) @ w2 - y) ** 2)


def fsdp_loss(shards, x, y):  # shards: this device's eighth of each weight
    # for this step only
    whole = [jax.lax.all_gather(s, "i", tiled=True) for s in shards]
    # the mean over devices is in the loss
    return jax.lax.pmean(loss(whole, x, y), "i")


def fsdp_step(shards, x, y):
    return jax.value_and_grad(fsdp_loss)(shards, x, y)


split = NamedSharding(ring, P("i"))
# one row of w1, two entries of w2
shards = [jax.device_put(w, split) for w in (w1, w2)]
x, y = jax.device_put(inputs, split), jax.device_put(targets, split)
step = jax.shard_map(
    fsdp_step, mesh=ring, in_specs=P("i"), out_specs=(P(), P("i"))
)
value, grads = jax.jit(step)(shards, x, y)

# one device
full_value, full_grads = jax.value_and_grad(loss)([w1, w2], inputs, targets)
print(
    "loss equals the unsharded loss:", bool(jnp.allclose(value, full_value))
)
for name, g, full in zip(("w1", "w2"), grads, full_grads, strict=True):
    print(
        f"gradient of {name}: {jax.typeof(g)}, equal: "
        f"{bool(jnp.allclose(g, full))}"
    )
per_device = jax.make_jaxpr(step)(shards, x, y).eqns[0].params["jaxpr"]
print("collectives of the per-device program, in order:")
for e in per_device.eqns:
    if e.primitive.name in (
        "all_gather",
        "psum_invariant",
        "reduce_scatter",
    ):
        types = [
            v.aval.str_short(short_dtypes=True)
            for v in (e.invars[0], e.outvars[0])
        ]
        print(f"  {e.primitive.name:14} {types[0]} -> {types[1]}")
