import jax
import jax.numpy as jnp

from bookexec.facts import record  # hidden

x = jnp.arange(5.0)
updates = {
    "set": lambda x: x.at[1].set(9.0),
    "add": lambda x: x.at[1].add(9.0),
    "min": lambda x: x.at[1].min(-1.0),
    "max": lambda x: x.at[1].max(9.0),
    "multiply": lambda x: x.at[1].multiply(3.0),
}
for name, update in updates.items():
    closed = jax.make_jaxpr(update)(x)
    primitive = closed.jaxpr.eqns[-1].primitive.name
    print(f".at[1].{name:8} {update(x)}   last equation: {primitive}")
    record(f"{name}_primitive", primitive)  # hidden
print("x is unchanged:", x)
print(jax.make_jaxpr(updates["add"])(x))
