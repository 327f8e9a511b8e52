import jax
import jax.numpy as jnp

# lax: JAX's lower-level primitives
from jax import lax


def running_max(xs):
    def step(best, x):
        best = jnp.maximum(best, x)
        return best, best  # (new carry, output for this step)

    return lax.scan(step, xs[0], xs)


final, history = jax.jit(running_max)(jnp.array([3.0, 1.0, 4.0, 1.0, 5.0]))
print("final:  ", final)
print("history:", history)
print(jax.make_jaxpr(running_max)(jnp.zeros(5)))
