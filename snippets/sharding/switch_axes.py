# grid, feats, weights, auto_grid and collectives come from the blocks above
import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P
from jax.sharding import auto_axes, explicit_axes

from bookexec.facts import record  # hidden


# Inside an Explicit mesh: hand the model axis to the compiler for one
# product.
@auto_axes(axes="model", out_sharding=P("data", None))
def product_left_to_xla(x, w):
    # model is Auto in here, so the sharded contraction needs no out_sharding
    return x @ w


def product_typed(x, w):
    # the same product on the Explicit mesh, placed by out_sharding
    return jnp.matmul(x, w, out_sharding=P("data", None))


with jax.set_mesh(grid):
    print(jax.make_jaxpr(product_left_to_xla)(feats, weights))
    switched = collectives(product_left_to_xla, feats, weights)
    typed = collectives(product_typed, feats, weights)
    print("collectives, auto_axes:    ", switched)
    print("collectives, out_sharding: ", typed)
    record("switched_collectives", in_words(switched))  # hidden
    record("same_program", str(switched == typed))  # hidden


# Inside an Auto mesh: make both axes Explicit for one step, to read its
# types.
@explicit_axes(axes=("data", "model"), in_sharding=P("data", None))
def typed_step(h):
    print("inside explicit_axes:", jax.typeof(h))
    return h * 2


@jax.jit
def auto_program(h):
    print("outside:             ", jax.typeof(h))
    return typed_step(jnp.sin(h))


with jax.set_mesh(auto_grid):
    auto_program(jnp.ones((8, 4)))
