import jax
import jax.numpy as jnp

from bookexec.facts import record  # hidden

seen = {}  # hidden


def watched(name):
    """The same square, printing the tracer it was handed under the name
    given."""

    def square(x):
        print(f"{name:5} {x!r}")
        seen[name] = repr(x)  # hidden
        return x * x

    return square


jax.grad(watched("grad"))(3.0)
jax.jvp(watched("jvp"), (3.0,), (1.0,))
jax.vmap(watched("vmap"))(jnp.array([1.0, 2.0]))
jax.jit(watched("jit"))(3.0)
# hidden: begin
for name, text in seen.items():
    record(f"{name}_repr", text)
# hidden: end
