import jax
import jax.numpy as jnp

from bookexec.facts import record  # hidden


def squash_sum(x):
    return jnp.sum(x / (1.0 + jnp.abs(x)))


# a shape and a dtype, no data
spec = jax.ShapeDtypeStruct((8,), jnp.float32)
compiled = jax.jit(squash_sum).trace(spec).lower().compile()
print("compiled from", spec)
print("on f32[8]:", compiled(jnp.ones(8)))
errors = []  # hidden
for label, arg in [
    ("f32[9]", jnp.ones(9)),
    ("i32[8]", jnp.ones(8, jnp.int32)),
]:
    try:
        compiled(arg)
    except TypeError as err:
        errors.append(type(err).__name__)  # hidden
        print(f"on {label}:", type(err).__name__ + ":", err)
record("error", " ".join(sorted(set(errors))))  # hidden
# a Compiled is a finished program for fixed types, not a function JAX can
# transform
try:
    jax.grad(compiled)(jnp.ones(8))
except TypeError as err:
    print("jax.grad(compiled):", type(err).__name__ + ":", err)
