import jax
import jax.numpy as jnp

from bookexec.facts import record  # hidden


def energy(theta):
    return jnp.sum(jnp.sin(theta) ** 2)


angles = jnp.linspace(-1.0, 1.0, 4)
hlo = jax.jit(jax.grad(energy)).lower(angles).as_text()
print(hlo)
ops = [
    ln.split("= ")[1].split()[0]
    for ln in hlo.splitlines()
    if " = stablehlo." in ln
]
print(
    "operations, in order:",
    ", ".join(op.removeprefix("stablehlo.") for op in ops),
)
print("multiplications:", ops.count("stablehlo.multiply"))
record("multiplies", ops.count("stablehlo.multiply"))  # hidden
