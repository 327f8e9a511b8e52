import jax
import jax.numpy as jnp

from bookexec.facts import record  # hidden

W = jnp.array([[1.0, 2.0, 0.0], [0.0, -1.0, 3.0]])


def field(x):  # from R^3 to R^2
    return W @ jnp.sin(x)


x = jnp.array([1.0, 0.5, 2.0])
forward = jax.jacfwd(field)(x)
reverse = jax.jacrev(field)(x)
print(forward)
print("jacfwd equals jacrev:", bool(jnp.allclose(forward, reverse)))
print("by hand, W * cos(x):", bool(jnp.allclose(forward, W * jnp.cos(x))))
counts = []  # hidden
for name, jac in (("jacfwd", jax.jacfwd), ("jacrev", jax.jacrev)):
    n = len(jax.make_jaxpr(jac(field))(x).eqns)
    counts.append(n)  # hidden
    print(name, "equations:", n)
# hidden: begin
record(
    "eqns",
    f"{counts[0]} equations each"
    if counts[0] == counts[1]
    else f"{counts[0]} and {counts[1]} equations",
)
# hidden: end
