import jax
import jax.numpy as jnp

from bookexec.facts import record

seen = {}


def watched(name):
    """The same square, reporting which tracer it was handed under the name given."""

    def square(x):
        seen[name] = (type(x).__name__, repr(x))
        return x * x

    return square


jax.grad(watched("grad"))(3.0)
jax.jvp(watched("jvp"), (3.0,), (1.0,))
jax.vmap(watched("vmap"))(jnp.array([1.0, 2.0]))
jax.jit(watched("jit"))(3.0)
for name, (cls, text) in seen.items():
    print(f"{name:5} {cls:19} {text}")
    record(f"{name}_class", cls)
    record(f"{name}_repr", text)
