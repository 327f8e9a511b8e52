import jax
import jax.numpy as jnp

from bookexec.facts import record  # hidden

# solve(f, a, x0), from the block above, differentiates with respect to its
# argument a only.


def root_hidden(a):
    # f closes over a: the traced a is hidden inside f, where solve's rule
    # cannot reach it.
    return solve(lambda _, x: 0.5 * (x + a / x), None, 1.0)


print("value:", root_hidden(2.0))
try:
    jax.grad(root_hidden)(2.0)
except jax.errors.UnexpectedTracerError as err:
    print(type(err).__name__ + ":", err)
try:
    # the same mistake with a jit inside the grad
    jax.grad(jax.jit(root_hidden))(2.0)
except Exception as err:  # its class, CustomVJPException, is not public API
    print(type(err).__name__ + ":", err)


def solve_closed(f, x0):
    """solve for an f(x) that may close over traced values."""
    # f_open(x, *hoisted) computes f(x)
    f_open, hoisted = jax.closure_convert(f, x0)
    return solve(lambda params, x: f_open(x, *params), tuple(hoisted), x0)


def root(a):
    return solve_closed(lambda x: 0.5 * (x + a / x), 1.0)


def show_hoisted(a):
    f_open, hoisted = jax.closure_convert(lambda x: 0.5 * (x + a / x), 1.0)
    print(len(hoisted), "value hoisted; the jaxpr of f_open:")
    record("hoisted", len(hoisted))  # hidden
    print(jax.make_jaxpr(f_open)(1.0, *hoisted))
    return a


jax.grad(show_hoisted)(2.0)


def count_hoisted(a):
    _, hoisted = jax.closure_convert(lambda x: 0.5 * (x + a / x), 1.0)
    print(len(hoisted), "hoisted from a", type(a).__name__)
    return a


count_hoisted(2.0)  # a plain float, not traced
jax.jit(count_hoisted)(2.0)  # traced by jit alone
print("grad:", jax.grad(root)(2.0), "  1/(2 sqrt a):", 0.5 / jnp.sqrt(2.0))
print(
    "jit(vmap(grad)) at 1, 4, 9:",
    jax.jit(jax.vmap(jax.grad(root)))(jnp.array([1.0, 4.0, 9.0])),
)
