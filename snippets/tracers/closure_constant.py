import jax
import jax.numpy as jnp

offsets = jnp.array([1.0, 2.0, 3.0])


def shifted(x):
    return x + offsets


closed = jax.make_jaxpr(shifted)(jnp.zeros(3))
print(closed)
print("constvars:", [var.aval for var in closed.constvars])
print("consts:   ", closed.consts)
