import jax
import jax.numpy as jnp

from bookexec.facts import claim, record  # hidden
from bookexec.jax.stepper import stepper  # hidden

body_runs = []  # hidden


@jax.jit
def scaled(x):
    print("tracing scaled with", x.shape, x.dtype)
    body_runs.append(x.shape)  # hidden
    return x * 10


first = scaled(jnp.arange(3.0))
second = scaled(jnp.array([7.0, 8.0, 9.0]))
print("first: ", first)
print("second:", second)
record("body_runs", len(body_runs))  # hidden
claim("body_runs", "<=", 1, says="the Python body ran once")  # hidden
# hidden: begin
# The stepper traces `scaled` again (after the count above): its print and
# its calls.
again = [(jnp.array([7.0, 8.0, 9.0]),), (jnp.arange(4.0),)]
stepper("steps", scaled, jnp.arange(3.0), again=again)
# hidden: end
