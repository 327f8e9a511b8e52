import jax
import jax.numpy as jnp

# lax: JAX's lower-level primitives
from jax import lax

from bookexec.facts import record  # hidden


def grow_scan(x):
    # always 5 doublings
    final, _ = lax.scan(lambda v, _: (v * 2, None), x, length=5)
    return final


def grow_while(x):
    # double until >= 100
    return lax.while_loop(lambda v: v < 100.0, lambda v: v * 2, x)


x = jnp.float32(3.0)
one = jnp.float32(1.0)  # the tangent: how fast x moves
d_scan_rev = int(jax.grad(grow_scan)(x))
record("grad_scan", d_scan_rev)  # hidden
d_scan_fwd = int(jax.jvp(grow_scan, (x,), (one,))[1])
record("jvp_scan", d_scan_fwd)  # hidden
d_while_fwd = int(jax.jvp(grow_while, (x,), (one,))[1])
record("jvp_while", d_while_fwd)  # hidden
record("while_over_scan", d_while_fwd // d_scan_fwd)  # hidden
print("scan,  reverse mode (grad):", d_scan_rev)
print("scan,  forward mode (jvp): ", d_scan_fwd)
print("while, forward mode (jvp): ", d_while_fwd)
