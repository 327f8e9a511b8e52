# ring and P come from the first block
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding

inputs = jnp.arange(96.0).reshape(32, 3) / 50  # 32 examples, four per device
targets = jnp.sin(jnp.arange(32.0))
w = jnp.array([0.5, -0.25, 1.0])


def loss(w, x, y):  # mean squared error over the examples it is given
    return jnp.mean((x @ w - y) ** 2)


def habit(w, x, y):  # the per-device gradient, then its mean over devices
    return jax.lax.pmean(jax.grad(loss)(w, x, y), "i")


def global_loss(w, x, y):  # the mean over devices is part of the loss
    return jax.lax.pmean(loss(w, x, y), "i")


def mean_of_global(w, x, y):
    return jax.grad(global_loss)(w, x, y)


def varying_w(w, x, y):  # w marked varying: its gradient stays per device
    w = jax.lax.pcast(w, "i", to="varying")
    return jax.lax.pmean(jax.grad(loss)(w, x, y), "i")


x = jax.device_put(inputs, NamedSharding(ring, P("i")))
y = jax.device_put(targets, NamedSharding(ring, P("i")))
specs = dict(mesh=ring, in_specs=(P(), P("i"), P("i")), out_specs=P())
full = jax.grad(loss)(w, inputs, targets)  # one device, the whole batch
print("unsharded gradient:", [round(float(v), 4) for v in full])
for fn in (habit, mean_of_global, varying_w):
    g = jax.jit(jax.shard_map(fn, **specs))(w, x, y)
    same, eightfold = (
        bool(jnp.allclose(g, full)),
        bool(jnp.allclose(g, 8 * full)),
    )
    shown = [round(float(v), 4) for v in g]
    print(f"{fn.__name__:14} {shown}  equal: {same}  eightfold: {eightfold}")
tail = (
    jax.make_jaxpr(jax.shard_map(habit, **specs))(w, x, y)
    .eqns[0]
    .params["jaxpr"]
    .eqns[-4:]
)
print(
    "the per-device program of habit ends with:",
    [e.primitive.name for e in tail],
)
