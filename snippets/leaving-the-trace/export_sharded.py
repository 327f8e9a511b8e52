import re

import jax

# A fresh process: eight CPU devices, on any machine, before anything
# touches a device (with eight accelerators, leave out both lines).
jax.config.update("jax_platforms", "cpu")
jax.config.update("jax_num_cpu_devices", 8)

import jax.numpy as jnp  # noqa: E402
from jax import export  # noqa: E402
from jax.sharding import AxisType, NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402


def predict(w, x):
    return jnp.tanh(x @ w)


mesh = jax.make_mesh((8,), ("batch",), axis_types=(AxisType.Auto,))
replicated, by_rows = (
    NamedSharding(mesh, P()),
    NamedSharding(mesh, P("batch")),
)
placed_predict = jax.jit(predict, in_shardings=(replicated, by_rows))
shapes = (
    jax.ShapeDtypeStruct((3, 2), jnp.float32),
    jax.ShapeDtypeStruct((16, 3), jnp.float32),
)
# shapes and shardings, no data needed
exported = export.export(placed_predict)(*shapes)
print("devices:", exported.nr_devices)
print("specs:", [s.spec for s in exported.in_shardings_jax(mesh)])
main = next(
    line for line in exported.mlir_module().splitlines() if "@main" in line
)
print(re.sub(r" loc\([^)]*\)", "", main).strip().rstrip(" {"))

w = jax.device_put(jnp.ones((3, 2)) / 3, replicated)
x = jax.device_put(jnp.arange(48.0).reshape(16, 3) / 10, by_rows)
restored = export.deserialize(exported.serialize())
out = restored.call(w, x)
print(
    "placed:",
    out.sharding.spec,
    " equal:",
    bool(jnp.allclose(out, predict(w, x))),
)
try:
    restored.call(jnp.ones((3, 2)), jnp.ones((16, 3)))  # on one device
except ValueError as err:
    print("ValueError:", err)
