import jax
import jax.numpy as jnp

from bookexec.facts import record  # hidden


def energy(x):  # from R^3 to R
    return jnp.sum(jnp.sin(x) * jnp.cos(x)) + x[0] * x[2]


x3 = jnp.array([0.1, 0.2, 0.3])
h = jax.hessian(energy)(x3)
print(h)
print("hessian is jacfwd(jacrev):", bool(jnp.allclose(h, jax.jacfwd(jax.jacrev(energy))(x3))))
print("and jacrev(jacfwd):", bool(jnp.allclose(h, jax.jacrev(jax.jacfwd(energy))(x3))))
for name, fn in (("grad", jax.grad), ("hessian", jax.hessian)):
    n = len(jax.make_jaxpr(fn(energy))(x3).jaxpr.eqns)
    record(f"{name}_eqns", n)  # hidden
    print(name, "equations:", n)
# hidden: begin
eqns = jax.make_jaxpr(jax.hessian(energy))(x3).jaxpr.eqns
trig = sorted({str(e.outvars[0].aval) for e in eqns if e.primitive.name in ("sin", "cos")})
record("trig_types", ", ".join(trig))
tangents = [e for e in eqns if e.outvars[0].aval.shape[:1] == (3,) and e.outvars[0].aval.ndim >= 2]
record("batched_eqns", len(tangents))
# hidden: end
