from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=1)
def activate(x, leaky):
    print(f"tracing activate with leaky={leaky}")
    if leaky:  # a plain Python bool: no tracer involved
        return jnp.where(x > 0, x, 0.5 * x)
    return jnp.maximum(x, 0.0)


x = jnp.array([-2.0, 0.5, 3.0])
print(activate(x, True))
print(activate(x, False))
print(activate(x * 2, True))  # same static value and types: no new trace
