import jax
import jax.numpy as jnp


def sgd_step(params, grads, lr):
    return jax.tree.map(lambda p, g: p - lr * g, params, grads)


# Donate by name: every array in the `params` tree, and nothing else.
step = jax.jit(sgd_step, donate_argnames="params")

params = {"w": jnp.ones((500, 500)), "b": jnp.zeros(500)}
grads = jax.tree.map(jnp.ones_like, params)
lowered = step.lower(params, grads, 0.1)
print(
    "donated:", jax.tree.map(lambda arg: arg.donated, lowered.args_info[0])
)

old = params
# the usual idiom: rebind the name straight away
params = step(params, grads, 0.1)
print("old params deleted:", jax.tree.map(lambda a: a.is_deleted(), old))
print("grads deleted:     ", jax.tree.map(lambda a: a.is_deleted(), grads))
# the next step donates the new tree in turn
params = step(params, grads, 0.1)
print("w after two steps:", params["w"][0, 0])
