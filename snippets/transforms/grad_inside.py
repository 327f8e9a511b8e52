import jax
import jax.numpy as jnp

tangents = []  # hidden


def wave(x):
    y = jnp.sin(x) * x
    print("handed in:", repr(x))
    # primal and tangent are internal attributes: for looking, not for use
    print("  primal:", x.primal, "  wave's value, computed now:", y.primal)
    print("  tangent:", type(x.tangent).__name__, repr(x.tangent))
    tangents.append(type(x.tangent).__name__)  # hidden
    return y


print("grad, slope at 3.0:", jax.grad(wave)(3.0))
# hidden: begin
from bookexec.facts import record  # noqa: E402

record("tangent_class", tangents[0])
# hidden: end
