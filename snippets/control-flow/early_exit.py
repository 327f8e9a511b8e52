import jax
import jax.numpy as jnp

# lax: JAX's lower-level primitives
from jax import lax

from bookexec.facts import record  # hidden


def babylonian(a, x):
    return 0.5 * (x + a / x)  # its fixed point is sqrt(a)


def sqrt_while(a):
    def moving(state):
        x, before = state
        return jnp.abs(x - before) > 1e-6

    def step(state):
        return babylonian(a, state[0]), state[0]

    return lax.while_loop(moving, step, (babylonian(a, 1.0), 1.0))[0]


print("while_loop:", sqrt_while(2.0))
try:
    jax.grad(sqrt_while)(2.0)
except ValueError as err:
    print("grad of it:", err)


def sqrt_scan(a, max_steps=20):
    def step(state, _):
        x, done, updates = state
        new = babylonian(a, x)
        done = done | (jnp.abs(new - x) <= 1e-6)  # once done, always done
        x = jnp.where(done, x, new)  # a finished step keeps x as it was
        return (x, done, updates + jnp.where(done, 0, 1)), None

    start = (jnp.float32(1.0), jnp.bool_(False), jnp.int32(0))
    (x, done, updates), _ = lax.scan(step, start, length=max_steps)
    return x, done, updates  # done: whether it converged within max_steps


a = jnp.array([2.0, 100.0, 1e4])
roots, converged, updates = jax.vmap(sqrt_scan)(a)
print("scan with a done flag:", roots, "  steps that moved x:", updates)
print("converged:", converged)
slopes = jax.vmap(jax.grad(lambda a: sqrt_scan(a)[0]))(a)
print("grad:", slopes, "  1/(2 sqrt a):", 0.5 / jnp.sqrt(a))
loop = jax.make_jaxpr(sqrt_scan)(2.0).eqns[-1]
print("the loop:", loop.primitive.name, "length", loop.params["length"])
# hidden: begin
record("length", loop.params["length"])
record("most_updates", int(updates.max()))
record("grad_matches", str(bool(jnp.allclose(slopes, 0.5 / jnp.sqrt(a)))))
# hidden: end
