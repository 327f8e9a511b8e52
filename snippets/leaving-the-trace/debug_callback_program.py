import jax
import jax.numpy as jnp
from jax import lax

seen.clear()  # `seen` and `watch` are the debug-callback block's
jax.grad(jax.checkpoint(watch))(1.0)  # the backward pass recomputes watch
print("grad of checkpoint:", seen)

seen.clear()


def sin_if_positive(x):
    return lax.cond(x > 0, watch, jnp.negative, x)


jax.vmap(sin_if_positive)(jnp.array([-1.0, 2.0]))
jax.effects_barrier()
print("vmap of cond:      ", seen)
