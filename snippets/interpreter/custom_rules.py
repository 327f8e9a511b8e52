# evaluate comes from the block above
import jax
import jax.numpy as jnp

v = jnp.array([-1.0, 2.0])
relu = jax.make_jaxpr(jax.nn.relu)(v)  # relu has a custom JVP rule
(eqn,) = relu.eqns
print(eqn.primitive.name, "params:", sorted(eqn.params))
print("bind expects:", sorted(eqn.primitive.get_bind_params(eqn.params)))
try:
    # the params as the jaxpr stores them
    eqn.primitive.bind(v, **eqn.params)
except KeyError as err:
    print("bind(*values, **eqn.params) raises KeyError:", err)
print("evaluate:", evaluate(relu, relu.consts, v))


@jax.custom_vjp
def clipped(x):  # the identity, with its gradient clipped to [-1, 1]
    return x


clipped.defvjp(lambda x: (x, None), lambda _, g: (jnp.clip(g, -1.0, 1.0),))
clipped_jaxpr = jax.make_jaxpr(clipped)(v)
(vjp_eqn,) = clipped_jaxpr.eqns
print(vjp_eqn.primitive.name, "params:", sorted(vjp_eqn.params))
print("evaluate:", evaluate(clipped_jaxpr, clipped_jaxpr.consts, v))
