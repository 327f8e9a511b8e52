import jax
import jax.numpy as jnp
from jax import lax

from bookexec.facts import record  # hidden


def double(i, v):
    return v * 2.0


# Each construct as f(x, n); under jit both x and n are traced.
constructs = {
    "cond": lambda x, n: lax.cond(x > 1.0, jnp.sin, jnp.cos, x),
    "switch": lambda x, n: lax.switch(n, (jnp.sin, jnp.cos, jnp.tanh), x),
    "fori_static": lambda x, n: lax.fori_loop(0, 5, double, x),
    "fori_traced": lambda x, n: lax.fori_loop(0, n, double, x),
    "while_loop": lambda x, n: lax.while_loop(
        lambda v: v < 100.0, lambda v: v * 2.0, x
    ),
    "scan": lambda x, n: lax.scan(lambda v, _: (v * 2.0, None), x, length=5)[
        0
    ],
}
modes = {
    "jvp": lambda f: jax.jit(
        lambda x, n: jax.jvp(lambda x: f(x, n), (x,), (1.0,))[1]
    ),
    "grad": lambda f: jax.jit(jax.grad(f)),
}
x, n = jnp.float32(3.0), jnp.int32(1)
print(f"{'construct':12} {'primitive':10} {'jvp':12} grad")
for name, f in constructs.items():
    names = [e.primitive.name for e in jax.make_jaxpr(f)(x, n).jaxpr.eqns]
    primitive = next(p for p in names if p in ("cond", "while", "scan"))
    row = [primitive]
    record(f"{name}_primitive", primitive)  # hidden
    for mode, transform in modes.items():
        try:
            transform(f)(x, n)
            outcome = "works"
        except Exception as err:
            outcome = type(err).__name__
        row.append(outcome)
        record(f"{name}_{mode}", outcome)  # hidden
    print(f"{name:12} {row[0]:10} {row[1]:12} {row[2]}")
