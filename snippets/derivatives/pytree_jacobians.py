import jax
import jax.numpy as jnp

from bookexec.facts import record  # hidden


def layer(params, x):  # a dict of parameters in, a dict of results out
    h = jnp.tanh(params["w"] @ x + params["b"])
    return {"out": h, "norm": jnp.sum(h**2)}


params = {
    "w": jnp.arange(6.0).reshape(2, 3) / 10,
    "b": jnp.array([0.1, -0.2]),
}
x = jnp.array([1.0, 0.5, -1.0])

jac = jax.jacrev(layer)(params, x)  # the Jacobian with respect to params
print("jacrev:", jax.tree.map(jnp.shape, jac))
same = jax.tree.map(jnp.allclose, jac, jax.jacfwd(layer)(params, x))
print(
    "jacfwd gives the same tree:",
    jax.tree.structure(same),
    jax.tree.all(same),
)
print("d out / d b:", jac["out"]["b"], sep="\n")


def loss(params, x):
    return layer(params, x)["norm"]


hess = jax.hessian(loss)(params, x)
print("hessian:", jax.tree.map(jnp.shape, hess))
record("hessian_w_w", str(hess["w"]["w"].shape))  # hidden
print(
    "symmetric:",
    bool(jnp.allclose(hess["w"]["b"], hess["b"]["w"].transpose(1, 2, 0))),
)
