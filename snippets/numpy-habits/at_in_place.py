import jax
import jax.numpy as jnp

from bookexec.facts import record  # hidden


def set_first(x):
    return x.at[0].set(1.0)


def set_first_of_sin(x):
    return jnp.sin(x).at[0].set(1.0)  # the updated array is made inside


x = jnp.zeros(1_000_000)
versions = {
    "input, kept by caller": jax.jit(set_first),
    "input, donated": jax.jit(set_first, donate_argnums=0),
    "made inside": jax.jit(set_first_of_sin),
}
# hidden: begin
keys = {
    "input, kept by caller": "kept",
    "input, donated": "donated",
    "made inside": "inner",
}
# hidden: end
for label, jitted in versions.items():
    # XLA's text: fine to look at, not an API
    hlo = jitted.lower(x).compile().as_text()
    entry = hlo[hlo.index("ENTRY") :]
    copies = sum(" copy(" in line for line in entry.splitlines())
    update = "dynamic-update-slice(" in hlo
    aliased = "input_output_alias" in hlo
    print(
        f"{label:22} dynamic-update-slice: {update}  copies: {copies}  "
        f"aliased: {aliased}"
    )
    record(f"copies_{keys[label]}", copies)  # hidden
    record(f"aliased_{keys[label]}", str(aliased))  # hidden
