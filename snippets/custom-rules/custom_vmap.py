import jax
import jax.numpy as jnp
from jax.custom_batching import custom_vmap

from bookexec.facts import record  # hidden


@custom_vmap
def rms(x):
    return jnp.sqrt(jnp.mean(x * x))


@rms.def_vmap
def rms_batched(axis_size, in_batched, x):
    # Called by vmap in place of batching rms's body; x has its batch axis in
    # front.
    print("rule called: axis_size", axis_size, "in_batched", in_batched)
    (x_batched,) = in_batched
    # the value, and whether it is batched
    return jnp.sqrt(jnp.mean(x * x, axis=-1)), x_batched


rows = jnp.arange(12.0).reshape(3, 4)
print("one row:", rms(rows[0]))
print(
    "primitives of rms alone:",
    [e.primitive.name for e in jax.make_jaxpr(rms)(rows[0]).eqns],
)
print("vmap:", jax.vmap(rms)(rows))
print(jax.make_jaxpr(jax.vmap(rms))(rows))
print("forward mode:", jax.jvp(rms, (rows[0],), (jnp.ones(4),))[1])
try:
    jax.grad(rms)(rows[0])
except ValueError as err:
    print("grad:", type(err).__name__ + ":", err)
record("primitive", jax.make_jaxpr(rms)(rows[0]).eqns[0].primitive.name)  # fmt: skip  # hidden
