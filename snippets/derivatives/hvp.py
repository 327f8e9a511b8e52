import time

import jax
import jax.numpy as jnp

from bookexec.facts import claim, record, timings  # hidden

n = 300
A = jax.random.normal(jax.random.key(0), (n, n)) / n**0.5


def loss(x):
    return jnp.sum(jnp.tanh(A @ x) ** 2)


def hvp(x, v):
    return jax.jvp(jax.grad(loss), (x,), (v,))[1]  # forward over reverse


def per_call(fn, calls=100, repeat=5):
    """Seconds per call: the fastest of `repeat` runs of `calls` back-to-back
    calls, after a warm-up call that compiles. One call is too short to time
    on its own."""
    # warm-up: the first call of a jitted function compiles
    jax.block_until_ready(fn())
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        # stop once every result is ready
        jax.block_until_ready([fn() for _ in range(calls)])
        runs.append(time.perf_counter() - start)
    return min(runs) / calls


x = jnp.linspace(-1.0, 1.0, n)
v = jnp.ones(n)
full = jax.jit(lambda x, v: jax.hessian(loss)(x) @ v)
product = jax.jit(hvp)
print(
    "same vector:", bool(jnp.allclose(full(x, v), product(x, v), atol=1e-4))
)
n_hvp = len(jax.make_jaxpr(hvp)(x, v).eqns)
n_grad = len(jax.make_jaxpr(jax.grad(loss))(x).eqns)
record("hvp_eqns", n_hvp)  # hidden
record("grad_eqns", n_grad)  # hidden
print("equations, hvp:", n_hvp, " grad:", n_grad)
t_full = per_call(lambda: full(x, v))
t_hvp = per_call(lambda: product(x, v))
# hidden: begin
t = timings(  # the same runs of 100 calls, taken in turns
    {
        "full_hessian_100_calls": lambda: [full(x, v) for _ in range(100)],
        "hvp_100_calls": lambda: [product(x, v) for _ in range(100)],
    }
)
t_full, t_hvp = t["full_hessian_100_calls"], t["hvp_100_calls"]
# hidden: end
speedup = t_full / t_hvp
# hidden: begin
speedup = record("speedup", speedup, kind="ratio")
claim(
    "speedup",
    ">=",
    5,
    says="the Hessian-vector product is at least 5 times faster",
)
# hidden: end
print(
    f"jvp of grad is {speedup:.3g} times faster than the full Hessian times "
    f"v, n = {n}"
)
