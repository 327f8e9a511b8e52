import jax
import jax.numpy as jnp

from bookexec.facts import record  # hidden

runs = 0  # how often cube's Python body ran


def cube(x):
    global runs
    runs += 1
    return x**3


transformed = {
    "grad": jax.grad(cube),
    "jvp": lambda v: jax.jvp(cube, (v,), (1.0,)),
    "vmap": lambda v: jax.vmap(cube)(jnp.full(4, v)),
    "jit": jax.jit(cube),
    "jit(grad)": jax.jit(jax.grad(cube)),
}
for name, call in transformed.items():
    runs = 0
    for v in (1.0, 2.0, 3.0):
        call(v)
    print(f"{name:9} 3 calls, body ran: {runs}")
    record(name.replace("(", "_").rstrip(")") + "_runs", runs)  # hidden
