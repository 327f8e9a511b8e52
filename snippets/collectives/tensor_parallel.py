# ring and P come from the first block; here its axis splits the layer, not
# the batch
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding

x = jnp.arange(64.0).reshape(4, 16) / 32  # four examples of sixteen features
w = jnp.arange(256.0).reshape(16, 16) / 128 - 1  # one layer's weight


def layer(x, w):
    return jnp.tanh(x @ w)


# two features of x and the two rows of w that read them
def summed(x_part, w_rows):
    # add up the partial products
    return jnp.tanh(jax.lax.psum(x_part @ w_rows, "i"))


# the same sum, of which each device keeps two features
def scattered(x_part, w_rows):
    part = jax.lax.psum_scatter(
        x_part @ w_rows, "i", scatter_dimension=1, tiled=True
    )
    return jnp.tanh(part)


def collective_eqns(jaxpr):
    kinds = ("psum_invariant", "pvary", "reduce_scatter", "all_gather")
    return [
        f"{e.primitive.name} -> "
        f"{e.outvars[0].aval.str_short(short_dtypes=True)}"
        for e in jaxpr.eqns
        if e.primitive.name in kinds
    ]


# x split by features, w by rows: two per device
in_specs = (P(None, "i"), P("i", None))
x_split = jax.device_put(x, NamedSharding(ring, in_specs[0]))
w_split = jax.device_put(w, NamedSharding(ring, in_specs[1]))
# one device
full, full_grad = layer(x, w), jax.grad(lambda w: layer(x, w).sum())(w)


# against the unsharded layer: values, gradients, collectives
def compare(fn, out_specs):
    sharded = jax.shard_map(
        fn, mesh=ring, in_specs=in_specs, out_specs=out_specs
    )

    def total(w):  # a scalar to differentiate
        return sharded(x_split, w).sum()

    out, grad = sharded(x_split, w_split), jax.jit(jax.grad(total))(w_split)
    print(
        f"{fn.__name__}: {jax.typeof(out)}, equal: "
        f"{bool(jnp.allclose(out, full))};",
        f"gradient {jax.typeof(grad)}, equal: "
        f"{bool(jnp.allclose(grad, full_grad))}",
    )
    forward = (
        jax.make_jaxpr(sharded)(x_split, w_split).eqns[0].params["jaxpr"]
    )
    backward = (
        jax.make_jaxpr(jax.grad(total))(w_split).eqns[-1].params["jaxpr"]
    )
    print("  forward: ", collective_eqns(forward))
    print("  backward:", collective_eqns(backward))


compare(summed, out_specs=P())  # every device gets the whole output
compare(scattered, out_specs=P(None, "i"))  # split by features, as x was
