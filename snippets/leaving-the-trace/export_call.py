# predict, w, x, restored, signature and export come from the blocks above
import jax
import jax.numpy as jnp

everywhere = export.export(
    jax.jit(predict), platforms=("cpu", "cuda", "tpu")
)(w, x)
print("platforms:", everywhere.platforms)
print("runs here:", bool(jnp.allclose(everywhere.call(w, x), predict(w, x))))
print(signature(everywhere))
tpu_only = export.export(jax.jit(predict), platforms=("tpu",))(w, x)
try:
    tpu_only.call(w, x)
except ValueError as err:
    print("tpu only:", err)


@jax.jit
def doubled(w, x):
    # an exported program inside a new jitted one
    return restored.call(w, x) * 2


print(jax.make_jaxpr(doubled)(w, x))
print(bool(jnp.allclose(doubled(w, x), 2 * predict(w, x))))
