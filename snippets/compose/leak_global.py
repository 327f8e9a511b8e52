import jax
import jax.numpy as jnp

kept = []


def remember(x):
    kept.append(x)  # a side effect: the tracer outlives its trace
    return x + 1.0


jax.jit(remember)(jnp.float32(2.0))
print("kept:", type(kept[0]).__name__)
jnp.sin(kept[0])  # the trace that made this tracer has ended
