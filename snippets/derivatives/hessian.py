import jax
import jax.numpy as jnp

from bookexec.facts import record  # hidden


def energy(x):  # from R^3 to R
    return jnp.sum(jnp.sin(x) * jnp.cos(x)) + x[0] * x[2]


x3 = jnp.array([0.1, 0.2, 0.3])
h = jax.hessian(energy)(x3)
print(h)
print(
    "hessian is jacfwd(jacrev):",
    bool(jnp.allclose(h, jax.jacfwd(jax.jacrev(energy))(x3))),
)
print(
    "and jacrev(jacfwd):",
    bool(jnp.allclose(h, jax.jacrev(jax.jacfwd(energy))(x3))),
)
for name, fn in (("grad", jax.grad), ("hessian", jax.hessian)):
    n = len(jax.make_jaxpr(fn(energy))(x3).eqns)
    record(f"{name}_eqns", n)  # hidden
    print(name, "equations:", n)
eqns = jax.make_jaxpr(jax.hessian(energy))(x3).eqns
trig = {
    e.outvars[0].aval.shape
    for e in eqns
    if e.primitive.name in ("sin", "cos")
}
print("shapes of every sin and cos in the hessian:", *trig)
record("trig_shapes", ", ".join(map(str, trig)))  # hidden
