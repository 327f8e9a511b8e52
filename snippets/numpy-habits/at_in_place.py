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
print("backend:", jax.default_backend())  # copies depend on the backend
for label, jitted in versions.items():
    compiled = jitted.lower(x).compile()
    hlo = compiled.as_text()  # XLA's text: fine to look at, not an API
    entry = hlo[hlo.index("ENTRY") :]
    copies = sum(" copy(" in line for line in entry.splitlines())
    update = "dynamic-update-slice(" in hlo
    aliased = compiled.memory_analysis().alias_size_in_bytes
    print(
        f"{label:22} dynamic-update-slice: {update}  copies: {copies}  "
        f"aliased bytes: {aliased}"
    )
    record(f"copies_{keys[label]}", copies)  # hidden
    record(f"aliased_{keys[label]}", str(aliased > 0))  # hidden
    record(f"alias_bytes_{keys[label]}", aliased)  # hidden
