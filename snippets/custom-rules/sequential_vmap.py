import jax
import jax.numpy as jnp
from jax.custom_batching import sequential_vmap

from bookexec.facts import record  # hidden


# the rule is ready-made: one call of the body per example, in a loop
@sequential_vmap
def rms(x):
    return jnp.sqrt(jnp.mean(x * x))


rows = jnp.arange(12.0).reshape(3, 4)
print("vmap:", jax.vmap(rms)(rows))
batched = jax.make_jaxpr(jax.vmap(rms))(rows)
print("primitives under vmap:", [e.primitive.name for e in batched.eqns])
print("forward mode:", jax.jvp(rms, (rows[0],), (jnp.ones(4),))[1])
tangents = jnp.ones_like(rows)  # one tangent per row
print(
    "vmap of jvp:",
    jax.vmap(lambda r, t: jax.jvp(rms, (r,), (t,))[1])(rows, tangents),
)
try:
    # a custom_vmap like any other: no reverse mode
    jax.vmap(jax.grad(rms))(rows)
except ValueError as err:
    print("vmap of grad:", type(err).__name__ + ":", err)
try:
    # forward mode too, but the rule is given no batched argument
    jax.jacfwd(rms)(rows[0])
except ValueError as err:
    print("jacfwd:", type(err).__name__ + ":", err)
record("primitive", batched.eqns[0].primitive.name)  # hidden
