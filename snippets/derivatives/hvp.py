import time

import jax
import jax.numpy as jnp

from bookexec.facts import claim, record, timing  # hidden

n = 300
A = jax.random.normal(jax.random.key(0), (n, n)) / n**0.5


def loss(x):
    return jnp.sum(jnp.tanh(A @ x) ** 2)


def hvp(x, v):
    return jax.jvp(jax.grad(loss), (x,), (v,))[1]  # forward over reverse


def fastest(fn, repeat=5):
    """Seconds for the fastest of `repeat` calls, after a warm-up call that compiles."""
    fn().block_until_ready()  # warm-up: the first call of a jitted function compiles
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn().block_until_ready()  # stop the clock only once the result is ready
        runs.append(time.perf_counter() - start)
    return min(runs)


x = jnp.linspace(-1.0, 1.0, n)
v = jnp.ones(n)
full = jax.jit(lambda x, v: jax.hessian(loss)(x) @ v)
product = jax.jit(hvp)
print("same vector:", bool(jnp.allclose(full(x, v), product(x, v), atol=1e-4)))
n_hvp = len(jax.make_jaxpr(hvp)(x, v).jaxpr.eqns)
n_grad = len(jax.make_jaxpr(jax.grad(loss))(x).jaxpr.eqns)
record("hvp_eqns", n_hvp)  # hidden
record("grad_eqns", n_grad)  # hidden
print("equations, hvp:", n_hvp, " grad:", n_grad)
t_full = fastest(lambda: full(x, v))
t_hvp = fastest(lambda: product(x, v))
t_full = timing("full_hessian", lambda: full(x, v))  # hidden
t_hvp = timing("hvp", lambda: product(x, v))  # hidden
speedup = t_full / t_hvp
# hidden: begin
speedup = record("speedup", speedup, kind="ratio")
claim("speedup", ">=", 5, says="the Hessian-vector product is at least 5 times faster")
# hidden: end
print(f"jvp of grad is {speedup:.3g} times faster than the full Hessian times v, n = {n}")
