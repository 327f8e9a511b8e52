import jax
import jax.numpy as jnp

from bookexec.facts import record  # hidden


def hypot_pair(point):
    x, y = point
    return jnp.sqrt(x * x + y * y)


def hypot_two(x, y):
    return jnp.sqrt(x * x + y * y)


jaxpr_a = jax.make_jaxpr(hypot_pair)((3.0, 4.0))
jaxpr_b = jax.make_jaxpr(hypot_two)(3.0, 4.0)
print("one argument, a pair:")
print(jaxpr_a)
print("two arguments:")
print(jaxpr_b)
same = str(jaxpr_a) == str(jaxpr_b)
record("same", str(same))  # hidden
print("identical text:", same)
