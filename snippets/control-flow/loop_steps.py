import jax
import jax.numpy as jnp

# lax: JAX's lower-level primitives
from jax import lax

from bookexec.jax.stepper import stepper  # hidden

W = jnp.eye(8) * 0.5  # a small recurrent weight matrix
h0 = jnp.ones(8)


def cell(h):
    return jnp.tanh(W @ h + 1.0)


def python_for(h, n):
    for _ in range(n):  # n is static: this loop runs while tracing
        h = cell(h)
    return h


def with_scan(h, n):
    h, _ = lax.scan(lambda h, _: (cell(h), None), h, length=n)
    return h


for fn in (python_for, with_scan):
    jaxpr = jax.make_jaxpr(fn, static_argnums=1)(h0, 3)
    print(f"{fn.__name__}, 3 steps: top-level equations: {len(jaxpr.eqns)}")
stepper("unrolled", python_for, h0, 3, static_argnums=(1,))  # hidden
stepper("scanned", with_scan, h0, 3, static_argnums=(1,))  # hidden
