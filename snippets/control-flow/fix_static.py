from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=1)  # position 1, counting from 0: `smooth`
def bend_or_clip(x, smooth):
    print(f"tracing bend_or_clip with smooth={smooth}")
    if smooth:  # a plain Python bool: no tracer involved
        return jnp.where(x < 1.0, x * x, x)
    return jnp.maximum(x, 1.0)


x = jnp.array([0.5, -3.0, 4.0])
print(bend_or_clip(x, True))
print(bend_or_clip(x, False))
print(bend_or_clip(x + 1.0, True))  # same static value and types: no new trace
