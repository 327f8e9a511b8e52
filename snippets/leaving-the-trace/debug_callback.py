import jax
import jax.numpy as jnp

seen = []


def watch(x):
    # returns nothing, may be dropped
    jax.debug.callback(lambda v: seen.append(v.tolist()), x)
    return jnp.sin(x)


jaxpr = jax.make_jaxpr(watch)(1.0)
print([eqn.primitive.name for eqn in jaxpr.jaxpr.eqns])
printed = jax.make_jaxpr(lambda x: jax.debug.print("{}", x))(1.0)
print([eqn.primitive.name for eqn in printed.jaxpr.eqns])
jax.jit(watch)(1.0)
jax.vmap(watch)(jnp.array([2.0, 3.0]))
print("grad:", jax.grad(watch)(4.0))
print("seen:", seen)
# forward and backward pass in one jaxpr
backward = jax.make_jaxpr(jax.grad(watch))(4.0)
print("grad's jaxpr:", [eqn.primitive.name for eqn in backward.jaxpr.eqns])


def watch_in_order(x):
    # options first
    jax.debug.callback(ordered=True)(lambda v: seen.append(v.tolist()), x)
    return jnp.sin(x)


for fn in (watch, watch_in_order):
    (eqn, _) = jax.make_jaxpr(fn)(1.0).jaxpr.eqns
    print(
        f"{fn.__name__}: effects "
        f"{sorted(type(e).__name__ for e in eqn.effects)}"
    )
seen.clear()
jax.vmap(watch_in_order)(jnp.array([5.0, 6.0]))
print("ordered, under vmap:", seen)
