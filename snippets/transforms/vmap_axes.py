import jax
import jax.numpy as jnp

params = {"w": jnp.ones((3, 2)), "b": jnp.zeros(2)}


def predict(params, x):
    return jnp.tanh(x @ params["w"] + params["b"])


xs = jnp.ones((5, 3))  # five examples of three features

# one set of parameters, a batch of inputs
shared = jax.vmap(predict, in_axes=(None, 0))
print("in_axes=(None, 0):            ", shared(params, xs).shape)
# put the batch axis last
columns = jax.vmap(predict, in_axes=(None, 0), out_axes=1)
print("... out_axes=1:               ", columns(params, xs).shape)

# Five models that differ in w but share b: a prefix of the params tree, axis
# by leaf.
ensemble = {"w": jnp.ones((5, 3, 2)), "b": jnp.zeros(2)}
per_model = jax.vmap(predict, in_axes=({"w": 0, "b": None}, 0))
print("in_axes=({'w': 0, 'b': None}, 0):", per_model(ensemble, xs).shape)
print(jax.make_jaxpr(per_model)(ensemble, xs))
