import jax
import jax.numpy as jnp

from bookexec.facts import record


def set_first(x):
    return x.at[0].set(1.0)


def set_first_of_sin(x):
    return jnp.sin(x).at[0].set(1.0)  # the updated array is made inside


x = jnp.zeros(1_000_000)
versions = [
    ("kept", "input, kept by caller", jax.jit(set_first)),
    ("donated", "input, donated", jax.jit(set_first, donate_argnums=0)),
    ("inner", "made inside", jax.jit(set_first_of_sin)),
]
for key, label, jitted in versions:
    hlo = jitted.lower(x).compile().as_text()  # what XLA compiled
    entry = hlo[hlo.index("ENTRY") :]
    copies = record(f"copies_{key}", sum(" copy(" in line for line in entry.splitlines()))
    update = "dynamic-update-slice(" in hlo
    aliased = record(f"aliased_{key}", str("input_output_alias" in hlo))
    print(f"{label:22} dynamic-update-slice: {update}  copies: {copies}  aliased: {aliased}")
