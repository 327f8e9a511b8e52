from functools import partial

import jax
import jax.numpy as jnp
from jax import lax

from bookexec.facts import record  # hidden


def fixed_point(f, a, x0):
    """Iterate x -> f(a, x) until it stops moving: a while_loop, which grad
    cannot reverse."""

    def moving(pair):
        before, now = pair
        # one boolean for the loop, also when x is an array
        return jnp.max(jnp.abs(now - before)) > 1e-6

    def step(pair):
        return pair[1], f(a, pair[1])

    return lax.while_loop(moving, step, (x0, f(a, x0)))[1]


@partial(jax.custom_vjp, nondiff_argnums=(0,))
def solve(f, a, x0):
    return fixed_point(f, a, x0)


def solve_fwd(f, a, x0):
    x = fixed_point(f, a, x0)
    return x, (a, x)  # keep only the answer: no record of the iterations


def solve_bwd(f, residuals, g):
    a, x = residuals
    _, pull_a = jax.vjp(lambda a: f(a, x), a)
    _, pull_x = jax.vjp(lambda x: f(a, x), x)
    # At the answer x = f(a, x). Differentiating that identity gives the
    # cotangent w that solves w = g + pull_x(w): another fixed point, found
    # with the same loop.
    w = fixed_point(lambda g, w: g + pull_x(w)[0], g, g)
    # nothing flows back to the starting guess
    return pull_a(w)[0], jnp.zeros_like(x)


solve.defvjp(solve_fwd, solve_bwd)


def babylonian(a, x):
    return 0.5 * (x + a / x)  # its fixed point is sqrt(a)


a = 2.0
print("sqrt by iteration: ", solve(babylonian, a, 1.0))
slope = jax.grad(solve, argnums=1)(babylonian, a, 1.0)
exact = 0.5 / jnp.sqrt(a)
print("d sqrt(a)/da, implicit rule:", slope, "  1/(2 sqrt a):", exact)
record("matches", str(bool(jnp.allclose(slope, exact))))  # hidden
