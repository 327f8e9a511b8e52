# cyclic_shift_p, cyclic_shift and x come from the blocks above
import jax
import jax.numpy as jnp
from jax.interpreters import ad


def cyclic_shift_jvp(tangent, x, *, shift):
    # linear: the tangent moves like the value
    return cyclic_shift_p.bind(tangent, shift=shift)


ad.defjvp(cyclic_shift_p, cyclic_shift_jvp)

out, tangent = jax.jvp(cyclic_shift, (x,), (jnp.eye(5)[0],))
print("jvp:", out, tangent)
print(jax.make_jaxpr(lambda v, t: jax.jvp(cyclic_shift, (v,), (t,)))(x, x))
