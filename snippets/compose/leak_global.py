import jax
import jax.numpy as jnp

kept = []


def remember(x):
    y = x + 1.0
    kept.append(y)  # a side effect: the tracer outlives its trace
    return y


jax.jit(remember)(jnp.float32(2.0))
print("kept:", type(kept[0]).__name__)
jnp.sin(kept[0])  # the trace that made this tracer has ended
