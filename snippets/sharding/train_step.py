# grid, place and collectives come from the blocks above
import re

import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

from bookexec.facts import record  # hidden

# examples split over data: data parallel
batch = place((8, 12), P("data", None))
params = {
    # hidden units split over model
    "hidden": place((12, 16), P(None, "model")),
    "out": place((16, 1), P("model", None)),
}


def loss(params, x):
    h = jnp.tanh(x @ params["hidden"])
    # sums over model
    y = jnp.matmul(h, params["out"], out_sharding=P("data", None))
    return jnp.mean(y**2)


@jax.jit
def train_step(params, x):
    value, grads = jax.value_and_grad(loss)(params, x)
    new = jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)
    return value, grads, new


with jax.set_mesh(grid):
    value, grads, new = train_step(params, batch)
    for name in params:
        print(
            f"{name:6} param {jax.typeof(params[name])!s:22} grad "
            f"{jax.typeof(grads[name])}"
        )
    print("loss:", jax.typeof(value))
    same = all(jax.typeof(new[n]) == jax.typeof(params[n]) for n in params)
    print("updated params keep their types:", same)
    talk = collectives(train_step, params, batch)
    print("collectives in the compiled step:", talk)
    compiled = train_step.lower(params, batch).compile().as_text()
# what each all-reduce carries, as XLA typed it (layouts dropped)
reduced = []
for line in compiled.splitlines():
    if " all-reduce(" in line and " = " in line:
        carried = line.split(" = ", 1)[1].split(" all-reduce(")[0]
        reduced.append(re.sub(r"\{[0-9,]*\}", "", carried))
        print("an all-reduce carries", reduced[-1])
record("same_types", str(same))  # hidden
record("step_collectives", spelled(sum(talk.values())))  # hidden
record("loss_reduced", str(any(r.startswith("(f32[],") for r in reduced)))  # fmt: skip  # hidden
