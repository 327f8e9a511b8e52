import jax
import jax.numpy as jnp

from bookexec.facts import record  # hidden

d1 = jax.grad(jnp.sin)  # cos
d2 = jax.grad(d1)  # -sin
d3 = jax.grad(d2)  # -cos
x = 1.0
print("sin'  (1) =", d1(x), "  cos(1)  =", jnp.cos(x))
print("sin'' (1) =", d2(x), " -sin(1) =", -jnp.sin(x))
print("sin'''(1) =", d3(x), " -cos(1) =", -jnp.cos(x))
record("second", f"{d2(x):.4f}")  # hidden
print(jax.make_jaxpr(d2)(x))
