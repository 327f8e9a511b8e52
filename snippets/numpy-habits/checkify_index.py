import jax
import jax.numpy as jnp
from jax.experimental import checkify


def read(x, i):
    return x[i]


checked = jax.jit(checkify.checkify(read, errors=checkify.index_checks))
x = jnp.arange(5.0)
err, value = checked(x, 2)
print("i = 2: value", value, " error:", err.get())
err, value = checked(x, 10)
print("i = 10: value", value, "(clamped), and an error to throw")
err.throw()
