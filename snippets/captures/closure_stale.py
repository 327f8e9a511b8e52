import jax
import jax.numpy as jnp

gains = jnp.array([1.0, 2.0, 3.0])


def amplify(x):
    return x * gains  # gains is read from the enclosing scope


x = jnp.ones(3)
fast_amplify = jax.jit(amplify)
print("jitted, first call:   ", fast_amplify(x))

closed = jax.make_jaxpr(amplify)(x)
print(closed)
print("consts:", closed.consts)

gains = jnp.array([10.0, 20.0, 30.0])  # rebind the Python variable
print("plain Python call:    ", amplify(x))
print("jitted, same wrapper: ", fast_amplify(x))
print("jitted, new wrapper:  ", jax.jit(amplify)(x))
print("consts now:", jax.make_jaxpr(amplify)(x).consts)
