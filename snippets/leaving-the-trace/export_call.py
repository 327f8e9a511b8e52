# predict, w, x, restored and export come from the blocks above
import jax
import jax.numpy as jnp

everywhere = export.export(jax.jit(predict), platforms=("cpu", "cuda", "tpu"))(w, x)
print("platforms:", everywhere.platforms)
print("runs here:", bool(jnp.allclose(everywhere.call(w, x), predict(w, x))))


@jax.jit
def doubled(w, x):
    return restored.call(w, x) * 2  # an exported program inside a new jitted one


print(jax.make_jaxpr(doubled)(w, x))
print(bool(jnp.allclose(doubled(w, x), 2 * predict(w, x))))
