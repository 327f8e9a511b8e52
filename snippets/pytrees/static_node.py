import dataclasses

import jax
import jax.numpy as jnp

from bookexec.facts import record  # hidden


@jax.tree_util.register_static
@dataclasses.dataclass(frozen=True)  # frozen: hashable and compared by value
class Activation:
    name: str


layer = {"w": jnp.ones((2, 3)), "b": jnp.zeros(3), "act": Activation("relu")}
print("leaves:", len(jax.tree.leaves(layer)))
print(jax.tree.structure(layer))

traces = 0


@jax.jit
def apply(layer, x):
    global traces
    traces += 1
    y = x @ layer["w"] + layer["b"]
    return jax.nn.relu(y) if layer["act"].name == "relu" else jnp.tanh(y)


x = jnp.ones(2)
apply(layer, x)
apply(layer, x)
apply({**layer, "act": Activation("tanh")}, x)
print("traces, three calls with two activations:", traces)
record("traces", traces)  # hidden
