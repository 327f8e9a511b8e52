import jax
import jax.numpy as jnp

from bookexec.facts import claim, record, timing

n = 300
A = jax.random.normal(jax.random.key(0), (n, n)) / n**0.5


def loss(x):
    return jnp.sum(jnp.tanh(A @ x) ** 2)


def hvp(x, v):
    return jax.jvp(jax.grad(loss), (x,), (v,))[1]  # forward over reverse


x = jnp.linspace(-1.0, 1.0, n)
v = jnp.ones(n)
full = jax.jit(lambda x, v: jax.hessian(loss)(x) @ v)
product = jax.jit(hvp)
print("same vector:", bool(jnp.allclose(full(x, v), product(x, v), atol=1e-4)))
n_hvp = record("hvp_eqns", len(jax.make_jaxpr(hvp)(x, v).jaxpr.eqns))
n_grad = record("grad_eqns", len(jax.make_jaxpr(jax.grad(loss))(x).jaxpr.eqns))
print("equations, hvp:", n_hvp, " grad:", n_grad)
t_full = timing("full_hessian", lambda: full(x, v))
t_hvp = timing("hvp", lambda: product(x, v))
speedup = record("speedup", t_full / t_hvp, kind="ratio")
claim("speedup", ">=", 5, says="the Hessian-vector product is at least 5 times faster")
print(f"jvp of grad is {speedup} times faster than the full Hessian times v, n = {n}")
