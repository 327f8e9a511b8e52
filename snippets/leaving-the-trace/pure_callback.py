import jax
import jax.numpy as jnp
import numpy as np

received = []  # what each call of the host function was handed


def host_sinc(x):
    received.append(
        (isinstance(x, jax.Array), isinstance(x, np.ndarray), x.devices())
    )
    # plain NumPy, outside the trace
    return np.sinc(np.asarray(x)).astype(np.float32)


def sinc(x):
    # the callback's result type, declared
    shape = jax.ShapeDtypeStruct(x.shape, x.dtype)
    return jax.pure_callback(host_sinc, shape, x, vmap_method="sequential")


xs = jnp.array([0.0, 0.5, 1.0])
print(jax.jit(sinc)(xs))
(is_jax_array, is_numpy_array, devices) = received[0]
print(
    "host function handed a jax.Array:",
    is_jax_array,
    " a NumPy array:",
    is_numpy_array,
)
print("  on", devices)

jaxpr = jax.make_jaxpr(sinc)(xs)
(eqn,) = jaxpr.jaxpr.eqns
print(
    eqn.primitive.name,
    "params:",
    sorted(eqn.params),
    "effects:",
    eqn.effects,
)
print("result types:", eqn.params["result_avals"])
