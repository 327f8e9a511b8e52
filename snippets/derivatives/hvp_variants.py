# loss, x, v and n come from the block above
import jax
import jax.numpy as jnp

from bookexec.facts import record  # hidden


def fwd_over_rev(x, v):  # jvp of grad
    return jax.jvp(jax.grad(loss), (x,), (v,))[1]


# grad of a jvp: the derivative of the directional derivative
def rev_over_fwd(x, v):
    return jax.grad(lambda x: jax.jvp(loss, (x,), (v,))[1])(x)


def rev_over_rev(x, v):  # grad of grad's dot product with v
    return jax.grad(lambda x: jnp.vdot(jax.grad(loss)(x), v))(x)


variants = {
    f.__name__: f for f in (fwd_over_rev, rev_over_fwd, rev_over_rev)
}
jitted = {name: jax.jit(f) for name, f in variants.items()}
reference = jitted["fwd_over_rev"](x, v)
for name, f in variants.items():
    same = bool(jnp.allclose(jitted[name](x, v), reference, atol=1e-4))
    count = len(jax.make_jaxpr(f)(x, v).eqns)
    record(f"{name}_eqns", count)  # hidden
    print(name, "same vector:", same, " equations:", count)

V = jnp.eye(n)[:, :5]  # five directions as columns
# a Hessian-matrix product
hmp = jax.vmap(fwd_over_rev, in_axes=(None, 1), out_axes=1)
print("vmap of hvp, shape", hmp(x, V).shape, end=": ")
print(
    "equals H @ V:",
    bool(jnp.allclose(hmp(x, V), jax.hessian(loss)(x) @ V, atol=1e-4)),
)
