import jax
import jax.numpy as jnp
from jax import lax

ran = []


def double(v):
    ran.append("double")
    return v * 2


def halve(v):
    ran.append("halve")
    return v / 2


pick = jax.jit(lambda x: lax.cond(x > 0, double, halve, x))
print("result:", pick(jnp.float32(5.0)))
print("ran while tracing:", ran)
ran.clear()
print("result:", pick(jnp.float32(-5.0)))
print("ran on the second call:", ran)
