import jax
import jax.numpy as jnp
import numpy as np


def host_sinc(x):
    return np.sinc(np.asarray(x)).astype(np.float32)  # plain NumPy, outside the trace


def sinc(x):
    shape = jax.ShapeDtypeStruct(x.shape, x.dtype)  # the callback's result type, declared
    return jax.pure_callback(host_sinc, shape, x, vmap_method="sequential")


xs = jnp.array([0.0, 0.5, 1.0])
print(jax.jit(sinc)(xs))
jaxpr = jax.make_jaxpr(sinc)(xs)
(eqn,) = jaxpr.jaxpr.eqns
print(eqn.primitive.name, "params:", sorted(eqn.params), "effects:", eqn.effects)
print("result types:", eqn.params["result_avals"])
