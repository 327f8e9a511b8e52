import dataclasses

import jax
import jax.numpy as jnp

from bookexec.facts import record  # hidden


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Particle:
    position: jax.Array
    velocity: jax.Array
    label: str = jax.tree.static(default="")


traces = 0


@jax.jit
def drift(p, dt):
    global traces
    traces += 1
    return dataclasses.replace(p, position=p.position + dt * p.velocity)


dust = Particle(jnp.zeros(2), jnp.ones(2), label="dust")
moved = drift(drift(dust, 0.1), 0.1)
print(type(moved).__name__, moved.label, moved.position)
print("traces, two calls:", traces)
record("traces_same_label", traces)  # hidden
drift(Particle(jnp.zeros(2), jnp.ones(2), label="ash"), 0.1)
print("traces, new label:", traces)
record("traces_new_label", traces)  # hidden
print(drift.trace(dust, 0.1).jaxpr)
