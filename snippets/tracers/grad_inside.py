import jax
import jax.numpy as jnp

from bookexec.facts import record  # hidden

tangents = []  # hidden


def wave(x):
    y = jnp.sin(x) * x
    print("handed in:", repr(x))
    print("  primal:", x.primal, "  wave's value, computed now:", y.primal)
    print("  tangent:", type(x.tangent).__name__, repr(x.tangent))
    tangents.append(type(x.tangent).__name__)  # hidden
    return y


print("grad, slope at 3.0:", jax.grad(wave)(3.0))

# linearize is grad's first half: the value now, the linear part recorded as a jaxpr
value, linear = jax.linearize(wave, 3.0)
print(jax.make_jaxpr(linear)(1.0))
# transposing that linear function is grad's second half
print("transposed, at a cotangent of 1.0:", jax.linear_transpose(linear, 1.0)(1.0)[0])
record("tangent_class", tangents[0])  # hidden
record("same_tangent_class", str(len(set(tangents)) == 1))  # hidden
