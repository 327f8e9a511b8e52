import jax
import jax.numpy as jnp

# lax: JAX's lower-level primitives
from jax import lax

from bookexec.facts import record


def grow_scan(x):
    final, _ = lax.scan(lambda v, _: (v * 2, None), x, length=5)  # always 5 doublings
    return final


def grow_while(x):
    return lax.while_loop(lambda v: v < 100.0, lambda v: v * 2, x)  # double until >= 100


x = jnp.float32(3.0)
one = jnp.float32(1.0)  # the tangent: how fast x moves
d_scan_rev = record("grad_scan", int(jax.grad(grow_scan)(x)))
d_scan_fwd = record("jvp_scan", int(jax.jvp(grow_scan, (x,), (one,))[1]))
d_while_fwd = record("jvp_while", int(jax.jvp(grow_while, (x,), (one,))[1]))
record("while_over_scan", d_while_fwd // d_scan_fwd)
print("scan,  reverse mode (grad):", d_scan_rev)
print("scan,  forward mode (jvp): ", d_scan_fwd)
print("while, forward mode (jvp): ", d_while_fwd)
