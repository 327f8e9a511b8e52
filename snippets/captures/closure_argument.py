import jax
import jax.numpy as jnp

from bookexec.facts import record  # hidden

traces = 0


def amplify(x, gains):
    global traces
    traces += 1  # runs only while JAX traces amplify
    return x * gains


x = jnp.ones(3)
fast_amplify = jax.jit(amplify)
print(fast_amplify.trace(x, jnp.array([1.0, 2.0, 3.0])).jaxpr)
print(fast_amplify(x, jnp.array([1.0, 2.0, 3.0])))
print(fast_amplify(x, jnp.array([10.0, 20.0, 30.0])))
print("traces:", traces)
record("traces", traces)  # hidden
