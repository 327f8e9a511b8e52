import jax
import jax.numpy as jnp

# lax: JAX's lower-level primitives
from jax import lax

from bookexec.facts import record  # hidden

x = jnp.arange(1.0, 9.0)
print("cumulative sum:", lax.associative_scan(jnp.add, x))
# not associative
print("subtract, as a tree:  ", lax.associative_scan(jnp.subtract, x))
in_sequence = [float(x[0])]
for v in x[1:]:
    in_sequence.append(in_sequence[-1] - float(v))
print("subtract, in sequence:", in_sequence)


def sequential(a, b):
    """h[t] = a[t] * h[t-1] + b[t], from h = 0: one step after another."""

    def step(h, ab):
        h = ab[0] * h + ab[1]
        return h, h

    return lax.scan(step, 0.0, (a, b))[1]


def compose(earlier, later):
    # Each element is the map h -> a * h + b; two maps in a row are again one
    # such map.
    a1, b1 = earlier
    a2, b2 = later
    return a2 * a1, a2 * b1 + b2


def parallel(a, b):
    return lax.associative_scan(compose, (a, b))[1]


ka, kb = jax.random.split(jax.random.key(0))
a = jax.random.uniform(ka, (1000,), minval=0.5, maxval=1.0)
b = jax.random.normal(kb, (1000,))
print(
    "same as the scan:",
    jnp.allclose(parallel(a, b), sequential(a, b), rtol=1e-4, atol=1e-5),
)
counts = []  # hidden
for n in (2**10, 2**20):
    # a shape to trace with, no data
    x = jax.ShapeDtypeStruct((n,), jnp.float32)
    eqns = jax.make_jaxpr(parallel)(x, x).eqns
    counts.append(len(eqns))  # hidden
    print(
        f"n = {n:>7}:",
        len(eqns),
        "equations of",
        sorted({e.primitive.name for e in eqns}),
    )
# how many pairs each call of compose combines, noted while tracing
applied = []


def noted(earlier, later):
    applied.append(earlier[0].shape[0])
    return compose(earlier, later)


x = jax.ShapeDtypeStruct((2**10,), jnp.float32)
jax.make_jaxpr(lambda a, b: lax.associative_scan(noted, (a, b)))(x, x)
print(
    f"n = {x.shape[0]}: compose combines {sum(applied)} pairs; the scan's "
    "step runs n times"
)
# hidden: begin
record(
    "same",
    str(
        bool(
            jnp.allclose(
                parallel(a, b), sequential(a, b), rtol=1e-4, atol=1e-5
            )
        )
    ),
)
record("eqns_small", counts[0])
record("eqns_large", counts[1])
record("growth", counts[1] // counts[0])
record("applications", sum(applied))
record("per_element", f"{sum(applied) / x.shape[0]:.2f}")
# hidden: end
