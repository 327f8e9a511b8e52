import jax
import jax.numpy as jnp

from bookexec.facts import record  # hidden

python_prints = 0


@jax.jit
def halve(x):
    global python_prints
    python_prints += 1
    print("Python print: x is", x)
    jax.debug.print("jax.debug.print: x is {x}", x=x)
    return x / 2


for value in [2.0, 4.0, 6.0]:
    halve(jnp.float32(value)).block_until_ready()
jax.effects_barrier()  # wait for any debug output still in flight
print("python_prints:", python_prints)
record("python_prints", python_prints)  # hidden
