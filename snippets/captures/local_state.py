import jax
import jax.numpy as jnp


@jax.jit
def running_total(x):
    # created inside the call, gone when it returns
    state = {"total": jnp.zeros(())}
    for k in range(3):
        state["total"] = state["total"] + x[k]
    return state["total"]


print(running_total(jnp.ones(3)))
# same trace, new values: correct again
print(running_total(jnp.array([1.0, 2.0, 4.0])))
