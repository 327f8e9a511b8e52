# collectives comes from the blocks above
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding
from jax.sharding import PartitionSpec as P

from bookexec.facts import record  # hidden

# Auto axes
auto_grid = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))
placements = {
    "in_shardings": (
        NamedSharding(auto_grid, P("data", None)),
        NamedSharding(auto_grid, P()),
    ),
    "out_shardings": NamedSharding(auto_grid, P("data", None)),
}


def layer(x, w):
    h = jnp.tanh(x @ w)
    # A request in the middle of the program: keep h's rows over data,
    # columns over model.
    return jax.lax.with_sharding_constraint(
        h, NamedSharding(auto_grid, P("data", "model"))
    )


def plain_layer(x, w):
    return jnp.tanh(x @ w)


fast_layer = jax.jit(layer, **placements)
x, w = jnp.ones((8, 16)), jnp.ones((16, 4))
print(jax.make_jaxpr(fast_layer)(x, w))
out = fast_layer(x, w)
print("type:     ", jax.typeof(out))
print("placement:", out.sharding.spec)
print("collectives:", collectives(fast_layer, x, w))
plain = collectives(jax.jit(plain_layer, **placements), x, w)
print("without the constraint:", plain or "no collectives")
record("auto_out_type", str(jax.typeof(out)))  # hidden
record("auto_collectives", in_words(collectives(fast_layer, x, w)))  # hidden
record("plain_collectives", in_words(plain))  # hidden
