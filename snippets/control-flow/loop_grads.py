import jax
import jax.numpy as jnp
from jax import lax


def grow_scan(x):
    final, _ = lax.scan(lambda v, _: (v * 2, None), x, length=5)
    return final


def grow_while(x):
    return lax.while_loop(lambda v: v < 100.0, lambda v: v * 2, x)


x = jnp.float32(3.0)
print("scan, reverse mode (grad):", jax.grad(grow_scan)(x))
print("while, forward mode (jvp):", jax.jvp(grow_while, (x,), (jnp.float32(1.0),))[1])
