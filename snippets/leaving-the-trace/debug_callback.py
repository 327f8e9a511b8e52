import jax
import jax.numpy as jnp

seen = []


def watch(x):
    jax.debug.callback(lambda v: seen.append(v.tolist()), x)  # returns nothing, may be dropped
    return jnp.sin(x)


jaxpr = jax.make_jaxpr(watch)(1.0)
print([eqn.primitive.name for eqn in jaxpr.jaxpr.eqns])
printed = jax.make_jaxpr(lambda x: jax.debug.print("{}", x))(1.0)
print([eqn.primitive.name for eqn in printed.jaxpr.eqns])
jax.jit(watch)(1.0)
jax.vmap(watch)(jnp.array([2.0, 3.0]))
print("grad:", jax.grad(watch)(4.0))
print("seen:", seen)
